// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A connection's streams: the open ones by id, the highest id the peer opened (or skipped past),
/// and how the last `closedStreamMemory` closed ones ended, so a late frame on one gets the answer
/// RFC 9113 §5.1 gives it.
struct HTTP2StreamTable {
    private(set) var open: [UInt32: HTTP2Stream] = [:]
    private var closed: [UInt32: HTTP2StreamEnding] = [:]
    private var closedOrder: [UInt32] = []
    private let memory: Int
    /// The highest stream id the peer has opened (or skipped past); GOAWAY names it.
    var highestStreamID: UInt32 = 0

    init(memory: Int) {
        self.memory = memory
    }

    var isEmpty: Bool { open.isEmpty }
    var count: Int { open.count }

    subscript(id: UInt32) -> HTTP2Stream? { open[id] }

    mutating func insert(_ stream: HTTP2Stream) {
        open[stream.id] = stream
    }

    /// Takes `stream` out of the open ones, remembering how it ended; false when it is not one of them.
    mutating func remove(_ stream: HTTP2Stream, as how: HTTP2StreamEnding) -> Bool {
        guard open[stream.id] === stream else { return false }
        open[stream.id] = nil
        remember(stream.id, as: how)
        return true
    }

    mutating func remember(_ id: UInt32, as how: HTTP2StreamEnding) {
        if closed.updateValue(how, forKey: id) == nil { closedOrder.append(id) }
        if closedOrder.count > memory {
            let forget = closedOrder.count - memory / 2
            for old in closedOrder.prefix(forget) { closed[old] = nil }
            closedOrder.removeFirst(forget)
        }
    }

    /// A frame on a stream that is gone: after the peer's reset a stream error, after both
    /// END_STREAMs a connection error, both STREAM_CLOSED (RFC 9113 §5.1); true (ignore it) when
    /// this side reset the stream, false when the stream is not remembered.
    func ignoresClosed(_ id: UInt32, frame: String) throws(HTTP2ProtocolError) -> Bool {
        switch closed[id] {
        case .resetByPeer?: throw .stream(id, .streamClosed, "\(frame) on stream \(id) after its RST_STREAM")
        case .ended?: throw .connection(.streamClosed, "\(frame) on closed stream \(id)")
        case .resetLocally?: return true
        case nil: return false
        }
    }

    /// The open streams, lowest id first.
    var ordered: [HTTP2Stream] { open.values.sorted { $0.id < $1.id } }
}
