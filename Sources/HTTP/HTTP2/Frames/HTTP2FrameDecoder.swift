// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Cuts frames out of a byte stream and checks what RFC 9113 §4–6 require of each frame on its own
/// (sizes, stream ids, padding); what depends on the connection's state is the connection's job.
/// Bytes are buffered until a whole frame is there, never more than one frame beyond `maxFrameSize`.
package struct HTTP2FrameDecoder: Sendable {
    /// This side's SETTINGS_MAX_FRAME_SIZE: a longer frame is a FRAME_SIZE_ERROR (§4.2).
    package var maxFrameSize: Int
    private var buffer: [UInt8] = []
    private var start = 0

    package init(maxFrameSize: Int = 16_384) {
        self.maxFrameSize = maxFrameSize
    }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Bytes held that are not yet a whole frame.
    package var bufferedByteCount: Int { buffer.count - start }

    /// A frame's 9-byte header (RFC 9113 §4.1), as read: nothing checked but the length.
    package struct Header: Sendable {
        package let type: HTTP2FrameType
        package let flags: HTTP2Flags
        package let streamID: UInt32
    }

    /// Cuts the whole frames of what is buffered and `bytes` and hands each to `body` with its
    /// payload where it lies (valid during the call): in `bytes` itself while nothing is buffered,
    /// as nearly always (a read ends on a frame's end), else in the buffer. The rest of a frame
    /// `bytes` ends inside is buffered. `body` returns false to stop (the connection failed): the
    /// bytes after that frame are dropped. A frame above `maxFrameSize` throws, as `next()` does.
    ///
    /// `next()` is its slow twin (HTTP2FrameCodecTests: the same frames whatever the cuts): it
    /// copied every read into the buffer and every payload into an array of its own, made an
    /// `HTTP2Frame` of it and destroyed it, for a client's HEADERS an allocation the decoder's block
    /// then made again: about 47 k instructions of a `/users` request's 64 frames (HEADERS and DATA
    /// of its 33 upstream exchanges: Benchmarks/README.md).
    package mutating func frames(in bytes: UnsafeRawBufferPointer, _ body: (Header, UnsafeRawBufferPointer) -> Bool) throws(HTTP2ProtocolError) {
        let from = start, maxFrameSize = maxFrameSize
        if from < buffer.count {
            append(bytes)
            let cut = buffer.withUnsafeBytes { held in
                Result { () throws(HTTP2ProtocolError) in try Self.cut(UnsafeRawBufferPointer(rebasing: held[from...]), maxFrameSize: maxFrameSize, body) }
            }
            start += try cut.get()
            compact()
            return
        }
        let done = try Self.cut(bytes, maxFrameSize: maxFrameSize, body)
        if done < bytes.count { append(UnsafeRawBufferPointer(rebasing: bytes[done...])) }
    }

    /// The whole frames at the start of `bytes` to `body`; how many bytes they took (all of them
    /// once `body` said stop).
    private static func cut(_ bytes: UnsafeRawBufferPointer, maxFrameSize: Int, _ body: (Header, UnsafeRawBufferPointer) -> Bool) throws(HTTP2ProtocolError) -> Int {
        var offset = 0
        while bytes.count - offset >= 9 {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            guard length <= maxFrameSize else {
                throw .connection(.frameSizeError, "a frame of \(length) bytes is above SETTINGS_MAX_FRAME_SIZE \(maxFrameSize)")
            }
            guard bytes.count - offset >= 9 + length else { break }
            let header = Header(
                type: HTTP2FrameType(rawValue: bytes[offset + 3]), flags: HTTP2Flags(rawValue: bytes[offset + 4]),
                streamID: UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 5, as: UInt32.self)) & 0x7FFF_FFFF)
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(offset + 9)..<(offset + 9 + length)])
            offset += 9 + length
            if !body(header, payload) { return bytes.count }
        }
        return offset
    }

    /// The next whole frame, or nil until more bytes arrive.
    package mutating func next() throws(HTTP2ProtocolError) -> HTTP2Frame? {
        guard buffer.count - start >= 9 else { compact(); return nil }
        let length = Int(buffer[start]) << 16 | Int(buffer[start + 1]) << 8 | Int(buffer[start + 2])
        let type = HTTP2FrameType(rawValue: buffer[start + 3])
        let flags = HTTP2Flags(rawValue: buffer[start + 4])
        let streamID = Self.uint32(buffer, start + 5) & 0x7FFF_FFFF
        guard length <= maxFrameSize else {
            throw .connection(.frameSizeError, "a frame of \(length) bytes is above SETTINGS_MAX_FRAME_SIZE \(maxFrameSize)")
        }
        guard buffer.count - start >= 9 + length else { return nil }
        let payloadStart = start + 9
        start = payloadStart + length
        let payload = Array(buffer[payloadStart..<(payloadStart + length)])
        let frame = try Self.frame(type: type, flags: flags, streamID: streamID, payload: payload)
        compact()
        return frame
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 65_536)
            start = 0
        } else if start > 65_536 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    /// Builds one frame from its header fields and payload.
    static func frame(type: HTTP2FrameType, flags: HTTP2Flags, streamID: UInt32, payload: [UInt8]) throws(HTTP2ProtocolError) -> HTTP2Frame {
        let length = payload.count
        func requireStream(_ name: String) throws(HTTP2ProtocolError) {
            guard streamID != 0 else { throw .connection(.protocolError, "\(name) on stream 0") }
        }
        func requireConnection(_ name: String) throws(HTTP2ProtocolError) {
            guard streamID == 0 else { throw .connection(.protocolError, "\(name) on stream \(streamID)") }
        }
        /// The payload without its padding (§6.1, §6.2): a pad length reaching past the payload is a PROTOCOL_ERROR.
        func unpadded(_ name: String, skipping extra: Int = 0) throws(HTTP2ProtocolError) -> ArraySlice<UInt8> {
            guard flags.contains(.padded) else { return payload[...] }
            guard length >= 1 else { throw .connection(.frameSizeError, "padded \(name) without a pad length") }
            let padLength = Int(payload[0])
            guard padLength + 1 + extra <= length else {
                throw .connection(.protocolError, "\(name) padding of \(padLength) bytes is longer than the payload")
            }
            return payload[1..<(length - padLength)]
        }
        switch type {
        case .data:
            try requireStream("DATA")
            let body = try unpadded("DATA")
            // Unpadded (nearly always), the payload is the body: `Array` of the whole slice was a second copy.
            let bytes = flags.contains(.padded) ? Array(body) : payload
            return HTTP2Frame(streamID: streamID, flags: flags.intersection([.endStream, .padded]), payload: .data(bytes), flowControlledLength: length)
        case .headers:
            try requireStream("HEADERS")
            var block = try unpadded("HEADERS", skipping: flags.contains(.priority) ? 5 : 0)
            var dependsOn: UInt32?
            if flags.contains(.priority) {
                guard block.count >= 5 else { throw .connection(.frameSizeError, "HEADERS with PRIORITY shorter than 5 bytes") }
                let base = block.startIndex
                dependsOn = UInt32(block[base]) << 24 & 0x7F00_0000 | UInt32(block[base + 1]) << 16 | UInt32(block[base + 2]) << 8 | UInt32(block[base + 3])
                block = block.dropFirst(5)
            }
            let fragment = block.count == length ? payload : Array(block)
            return HTTP2Frame(streamID: streamID, flags: flags.intersection([.endStream, .endHeaders]), payload: .headers(fragment: fragment, dependsOn: dependsOn))
        case .priority:
            try requireStream("PRIORITY")
            guard length == 5 else { throw .stream(streamID, .frameSizeError, "PRIORITY of \(length) bytes, not 5") }
            return HTTP2Frame(streamID: streamID, payload: .priority(dependsOn: uint32(payload, 0) & 0x7FFF_FFFF))
        case .rstStream:
            try requireStream("RST_STREAM")
            guard length == 4 else { throw .connection(.frameSizeError, "RST_STREAM of \(length) bytes, not 4") }
            return HTTP2Frame(streamID: streamID, payload: .rstStream(HTTP2ErrorCode(rawValue: uint32(payload, 0))))
        case .settings:
            try requireConnection("SETTINGS")
            if flags.contains(.ack) {
                guard length == 0 else { throw .connection(.frameSizeError, "SETTINGS acknowledgement with a payload") }
                return HTTP2Frame(streamID: 0, flags: .ack, payload: .settings([]))
            }
            guard length % 6 == 0 else { throw .connection(.frameSizeError, "SETTINGS of \(length) bytes, not a multiple of 6") }
            var settings: [HTTP2Setting] = []
            for offset in stride(from: 0, to: length, by: 6) {
                let identifier = HTTP2Setting.Identifier(rawValue: UInt16(payload[offset]) << 8 | UInt16(payload[offset + 1]))
                settings.append(HTTP2Setting(identifier, uint32(payload, offset + 2)))
            }
            return HTTP2Frame(streamID: 0, payload: .settings(settings))
        case .pushPromise:
            try requireStream("PUSH_PROMISE")
            let block = try unpadded("PUSH_PROMISE", skipping: 4)
            guard block.count >= 4 else { throw .connection(.frameSizeError, "PUSH_PROMISE shorter than 4 bytes") }
            let promised = uint32(Array(block.prefix(4)), 0) & 0x7FFF_FFFF
            return HTTP2Frame(streamID: streamID, flags: flags.intersection(.endHeaders), payload: .pushPromise(promisedStreamID: promised, fragment: Array(block.dropFirst(4))))
        case .ping:
            try requireConnection("PING")
            guard length == 8 else { throw .connection(.frameSizeError, "PING of \(length) bytes, not 8") }
            return HTTP2Frame(streamID: 0, flags: flags.intersection(.ack), payload: .ping(payload))
        case .goAway:
            try requireConnection("GOAWAY")
            guard length >= 8 else { throw .connection(.frameSizeError, "GOAWAY of \(length) bytes, under 8") }
            return HTTP2Frame(streamID: 0, payload: .goAway(
                lastStreamID: uint32(payload, 0) & 0x7FFF_FFFF, code: HTTP2ErrorCode(rawValue: uint32(payload, 4)), debugData: Array(payload[8...])))
        case .windowUpdate:
            guard length == 4 else { throw .connection(.frameSizeError, "WINDOW_UPDATE of \(length) bytes, not 4") }
            return HTTP2Frame(streamID: streamID, payload: .windowUpdate(increment: uint32(payload, 0) & 0x7FFF_FFFF))
        case .continuation:
            try requireStream("CONTINUATION")
            return HTTP2Frame(streamID: streamID, flags: flags.intersection(.endHeaders), payload: .continuation(fragment: payload))
        default:
            return HTTP2Frame(streamID: streamID, flags: flags, payload: .unknown(type: type.rawValue, payload: payload))
        }
    }
}
