// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// One frame (RFC 9113 §4.1, §6), padding removed.
package struct HTTP2Frame: Sendable, Equatable {
    package enum Payload: Sendable, Equatable {
        case data([UInt8])
        /// A header block fragment; the priority fields, when present, are parsed and dropped
        /// (RFC 9113 §5.3.2 deprecates the scheme) apart from the dependency, checked against self-dependency.
        case headers(fragment: [UInt8], dependsOn: UInt32?)
        case priority(dependsOn: UInt32)
        case rstStream(HTTP2ErrorCode)
        case settings([HTTP2Setting])
        case pushPromise(promisedStreamID: UInt32, fragment: [UInt8])
        case ping([UInt8])
        case goAway(lastStreamID: UInt32, code: HTTP2ErrorCode, debugData: [UInt8])
        case windowUpdate(increment: UInt32)
        case continuation(fragment: [UInt8])
        /// A frame of a type this endpoint does not know, ignored (§4.1, §5.5).
        case unknown(type: UInt8, payload: [UInt8])
    }

    package var streamID: UInt32
    package var flags: HTTP2Flags
    package var payload: Payload
    /// The length of the frame's payload on the wire, padding included (flow control counts it, §6.1).
    package var flowControlledLength: Int

    package init(streamID: UInt32, flags: HTTP2Flags = [], payload: Payload, flowControlledLength: Int? = nil) {
        self.streamID = streamID
        self.flags = flags
        self.payload = payload
        if let flowControlledLength {
            self.flowControlledLength = flowControlledLength
        } else if case .data(let bytes) = payload {
            self.flowControlledLength = bytes.count
        } else {
            self.flowControlledLength = 0
        }
    }

    package var type: HTTP2FrameType {
        switch payload {
        case .data: .data
        case .headers: .headers
        case .priority: .priority
        case .rstStream: .rstStream
        case .settings: .settings
        case .pushPromise: .pushPromise
        case .ping: .ping
        case .goAway: .goAway
        case .windowUpdate: .windowUpdate
        case .continuation: .continuation
        case .unknown(let type, _): HTTP2FrameType(rawValue: type)
        }
    }

    package var endStream: Bool { flags.contains(.endStream) }
    package var endHeaders: Bool { flags.contains(.endHeaders) }
}
