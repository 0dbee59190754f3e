// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A connection's streams: the open ones by id, the highest id the peer opened (or skipped past),
/// and how the last `closedStreamMemory` closed ones ended, so a late frame on one gets the answer
/// RFC 9113 §5.1 gives it.
///
/// Fast path: the open streams lie in `slots`, stream `id` at `(id >> 1) & (slots.count - 1)`. A
/// connection's streams take odd ids (the client's: push is off), given in increasing order, so the
/// few open at once fall in distinct slots and a lookup is an index and one comparison; a
/// dictionary by id hashed the id (SipHash) on every HEADERS, DATA, insertion and removal, about
/// six times a stream (the figure: Benchmarks/README.md). A stream whose slot is taken (one that
/// outlived many newer ones, a long event stream) waits in `overflow`, the slow twin, a dictionary
/// by id (HTTP2StreamTableTests drives both against a plain dictionary). The closed ones are a ring
/// of the last endings, searched newest first: a late frame is nearly always on a stream just closed.
struct HTTP2StreamTable {
    private var slots: [HTTP2Stream?]
    private var overflow: [UInt32: HTTP2Stream] = [:]
    private(set) var count = 0
    /// The last `memory` streams closed and how, oldest overwritten first.
    private var closed: [(id: UInt32, ending: HTTP2StreamEnding)] = []
    private var nextClosed = 0
    private let memory: Int
    /// The highest stream id the peer has opened (or skipped past); GOAWAY names it.
    var highestStreamID: UInt32 = 0

    /// Slots to begin with (a connection with a few streams stays small) and at most: 4 KiB of
    /// references, past the 100 concurrent streams a peer is allowed.
    private static let initialSlots = 16
    private static let maxSlots = 512

    init(memory: Int) {
        self.memory = max(memory, 1)
        slots = Array(repeating: nil, count: Self.initialSlots)
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func slot(_ id: UInt32) -> Int { Int(id >> 1) & (slots.count - 1) }

    subscript(id: UInt32) -> HTTP2Stream? {
        if let stream = slots[slot(id)], stream.id == id { return stream }
        return overflow.isEmpty ? nil : overflow[id]
    }

    /// The open streams by id, made on each call: for the rare paths (SETTINGS, a cancel) and tests.
    var open: [UInt32: HTTP2Stream] {
        var open = overflow
        for case let stream? in slots { open[stream.id] = stream }
        return open
    }

    mutating func insert(_ stream: HTTP2Stream) {
        count += 1
        if slots[slot(stream.id)] != nil && slots.count < Self.maxSlots { grow() }
        let index = slot(stream.id)
        if slots[index] == nil {
            slots[index] = stream
        } else {
            overflow[stream.id] = stream
        }
    }

    /// Twice the slots, every open stream placed again (the overflow's too, where it now fits).
    private mutating func grow() {
        let streams = slots.compactMap { $0 } + overflow.values
        slots = Array(repeating: nil, count: slots.count * 2)
        overflow = [:]
        for stream in streams {
            let index = slot(stream.id)
            if slots[index] == nil { slots[index] = stream } else { overflow[stream.id] = stream }
        }
    }

    /// Takes `stream` out of the open ones, remembering how it ended; false when it is not one of them.
    mutating func remove(_ stream: HTTP2Stream, as how: HTTP2StreamEnding) -> Bool {
        let index = slot(stream.id)
        if slots[index] === stream {
            slots[index] = nil
        } else if !overflow.isEmpty, overflow[stream.id] === stream {
            overflow[stream.id] = nil
        } else {
            return false
        }
        count -= 1
        remember(stream.id, as: how)
        return true
    }

    /// Notes how stream `id` ended; a second note for one id is the one found.
    mutating func remember(_ id: UInt32, as how: HTTP2StreamEnding) {
        if closed.count < memory {
            closed.append((id, how))
        } else {
            closed[nextClosed] = (id, how)
        }
        nextClosed = (nextClosed + 1) % memory
    }

    /// How stream `id` ended, if it is among the last `memory` closed: the newest note first.
    private func ending(of id: UInt32) -> HTTP2StreamEnding? {
        var index = nextClosed
        for _ in 0..<closed.count {
            index = index == 0 ? closed.count - 1 : index - 1
            if closed[index].id == id { return closed[index].ending }
        }
        return nil
    }

    /// A frame on a stream that is gone: after the peer's reset a stream error, after both
    /// END_STREAMs a connection error, both STREAM_CLOSED (RFC 9113 §5.1); true (ignore it) when
    /// this side reset the stream, false when the stream is not remembered.
    func ignoresClosed(_ id: UInt32, frame: String) throws(HTTP2ProtocolError) -> Bool {
        switch ending(of: id) {
        case .resetByPeer?: throw .stream(id, .streamClosed, "\(frame) on stream \(id) after its RST_STREAM")
        case .ended?: throw .connection(.streamClosed, "\(frame) on closed stream \(id)")
        case .resetLocally?: return true
        case nil: return false
        }
    }

    /// The open streams, lowest id first.
    var ordered: [HTTP2Stream] { (slots.compactMap { $0 } + overflow.values).sorted { $0.id < $1.id } }
}
