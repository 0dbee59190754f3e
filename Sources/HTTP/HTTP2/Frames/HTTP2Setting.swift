// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A SETTINGS parameter (RFC 9113 §6.5.2); unknown identifiers are ignored on receipt.
package struct HTTP2Setting: Sendable, Hashable {
    package struct Identifier: RawRepresentable, Sendable, Hashable {
        package let rawValue: UInt16
        package init(rawValue: UInt16) { self.rawValue = rawValue }

        package static let headerTableSize = Identifier(rawValue: 0x1)
        package static let enablePush = Identifier(rawValue: 0x2)
        package static let maxConcurrentStreams = Identifier(rawValue: 0x3)
        package static let initialWindowSize = Identifier(rawValue: 0x4)
        package static let maxFrameSize = Identifier(rawValue: 0x5)
        package static let maxHeaderListSize = Identifier(rawValue: 0x6)
    }

    package var identifier: Identifier
    package var value: UInt32

    package init(_ identifier: Identifier, _ value: UInt32) {
        self.identifier = identifier
        self.value = value
    }
}

/// The peer's settings as they stand, with the defaults of RFC 9113 §6.5.2 until it says otherwise.
package struct HTTP2PeerSettings: Sendable {
    package var headerTableSize = 4096
    package var enablePush = true
    package var maxConcurrentStreams: Int?
    package var initialWindowSize = 65_535
    package var maxFrameSize = 16_384
    package var maxHeaderListSize: Int?

    package init() {}

    /// Applies one received setting; a value out of its range is a connection error (§6.5.2).
    package mutating func apply(_ setting: HTTP2Setting) throws(HTTP2ProtocolError) {
        let value = Int(setting.value)
        switch setting.identifier {
        case .headerTableSize: headerTableSize = value
        case .enablePush:
            guard value <= 1 else { throw .connection(.protocolError, "SETTINGS_ENABLE_PUSH of \(value)") }
            enablePush = value == 1
        case .maxConcurrentStreams: maxConcurrentStreams = value
        case .initialWindowSize:
            guard value <= HTTP2FlowWindow.maximum else {
                throw .connection(.flowControlError, "SETTINGS_INITIAL_WINDOW_SIZE of \(value) is above 2^31-1")
            }
            initialWindowSize = value
        case .maxFrameSize:
            guard value >= 16_384 && value <= 16_777_215 else {
                throw .connection(.protocolError, "SETTINGS_MAX_FRAME_SIZE of \(value) is outside 2^14…2^24-1")
            }
            maxFrameSize = value
        case .maxHeaderListSize: maxHeaderListSize = value
        default: break
        }
    }
}
