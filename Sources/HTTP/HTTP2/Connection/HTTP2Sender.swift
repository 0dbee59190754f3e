// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What one connection sends: the frames collected for the socket's next write, the HPACK encoder,
/// the connection's send window and the peer's frame size, and the write scheduler that decides
/// which stream's DATA goes next. It never writes: the socket's owner takes `output`.
struct HTTP2Sender {
    /// What a stream's DATA did.
    enum Progress {
        /// END_STREAM went out: the response is complete (the state machine moves the stream on).
        case ended
        /// The windows shut and the stream began to wait for them (once per stall, for the metric).
        case stalled
        /// Sent what it could; the rest waits in the scheduler, or nothing is left.
        case sent
    }

    private(set) var output: [UInt8] = []
    private var encoder = HPACKEncoder()
    /// The connection's send window (RFC 9113 §6.9.1).
    var window = HTTP2FlowWindow(65_535)
    /// SETTINGS_MAX_FRAME_SIZE of the peer.
    var maxFrameSize = 16_384
    private(set) var scheduler = HTTP2WriteScheduler()
    private let limits: HTTP2ConnectionLimits

    init(limits: HTTP2ConnectionLimits) {
        self.limits = limits
    }

    /// The client's connection preface (RFC 9113 §3.4), before its SETTINGS.
    mutating func sendPreface() {
        output.append(contentsOf: HTTP2ConnectionStateMachine.preface)
    }

    mutating func send(_ frame: HTTP2Frame) {
        HTTP2FrameEncoder.append(frame, into: &output)
    }

    /// Hands the frames collected so far to the socket's owner, taking `buffer` (emptied) in their place.
    mutating func swapOutput(_ buffer: inout [UInt8]) {
        swap(&buffer, &output)
    }

    mutating func setMaxTableSize(_ size: Int) {
        encoder.setMaxTableSize(size)
    }

    /// A header block, continued in CONTINUATION frames when larger than the peer's frame size (§4.3).
    /// Encoded straight into `output` after its HEADERS frame's header, whose length and flags are
    /// written once it is known: a block of its own array, then copied into a frame, cost an
    /// allocation and a copy per block (about 200 instructions an upstream exchange:
    /// Benchmarks/README.md). A block above the frame size is taken back out and sent by
    /// `sendHeadersInPieces`, the slow twin (HTTP2SenderTests compares their bytes).
    /// - Parameter template: as for `HPACKEncoder.encode(_:template:varyingAt:name:value:valueString:into:)`.
    mutating func sendHeaders(
        streamID: UInt32, fields: some Sequence<(name: String, value: String)>, endStream: Bool, template: HTTP2RequestTemplate? = nil
    ) {
        if output.capacity == 0 { output.reserveCapacity(256) }
        let headerStart = output.count
        HTTP2FrameEncoder.appendHeader(length: 0, type: .headers, flags: [], streamID: streamID, into: &output)
        let blockStart = output.count
        Self.encodeBlock(fields, template: template, with: &encoder, into: &output)
        let length = output.count - blockStart
        if length <= maxFrameSize {
            let flags: HTTP2Flags = endStream ? [.endHeaders, .endStream] : .endHeaders
            HTTP2FrameEncoder.patchHeader(at: headerStart, length: length, flags: flags, in: &output)
            return
        }
        let block = Array(output[blockStart...])
        output.removeSubrange(headerStart...)
        sendHeadersInPieces(streamID: streamID, block: block, endStream: endStream)
    }

    /// The block for `fields`, from the template when there is one.
    private static func encodeBlock(
        _ fields: some Sequence<(name: String, value: String)>, template: HTTP2RequestTemplate?, with encoder: inout HPACKEncoder,
        into out: inout [UInt8]
    ) {
        guard let template else { return encoder.encode(fields, into: &out) }
        let request = template.exchange.request
        request.withTargetBytes { value in
            encoder.encode(fields, template: template.key, varyingAt: HTTP2RequestTemplate.position, name: HTTP2RequestTemplate.name, value: value,
                           valueString: { request.target }, into: &out)
        }
    }

    /// An encoded block as HEADERS, then CONTINUATION frames of at most the peer's frame size.
    mutating func sendHeadersInPieces(streamID: UInt32, block: [UInt8], endStream: Bool) {
        var offset = 0
        repeat {
            let end = min(offset + maxFrameSize, block.count)
            let last = end == block.count
            // A block in one frame is its own fragment, not copied into another array.
            let fragment = offset == 0 && last ? block : Array(block[offset..<end])
            if offset == 0 {
                var flags: HTTP2Flags = endStream ? .endStream : []
                if last { flags.insert(.endHeaders) }
                send(HTTP2Frame(streamID: streamID, flags: flags, payload: .headers(fragment: fragment, dependsOn: nil)))
            } else {
                send(HTTP2Frame(streamID: streamID, flags: last ? .endHeaders : [], payload: .continuation(fragment: fragment)))
            }
            offset = end
        } while offset < block.count
    }

    /// The block `sendHeaders` writes for `fields` (tests: the slow twin's input).
    mutating func encodedBlock(_ fields: some Sequence<(name: String, value: String)>, template: HTTP2RequestTemplate? = nil) -> [UInt8] {
        var block: [UInt8] = []
        Self.encodeBlock(fields, template: template, with: &encoder, into: &block)
        return block
    }

    /// Queues `bytes` on an open stream and sends what the windows and `backlog` (bytes the socket
    /// still holds) allow.
    mutating func enqueue(_ bytes: [UInt8], on stream: HTTP2Stream, end: Bool, backlog: Int, now: UInt64) -> Progress {
        // Nothing waiting before these bytes and every window takes them whole (a broadcast event on
        // a stream that keeps up): one DATA frame straight into the output, not through `outbound`.
        // The general path below does the same for these bytes; a test compares their bodies.
        if stream.outbound.count == 0, !bytes.isEmpty,
           bytes.count <= min(stream.sendWindow.available, window.available, maxFrameSize),
           backlog + output.count < limits.maxConnectionBufferedBytes {
            stream.outbound.stall = nil
            HTTP2FrameEncoder.appendData(streamID: stream.id, bytes[...], endStream: end, into: &output)
            stream.sendWindow.consume(bytes.count)
            window.consume(bytes.count)
            return end ? .ended : .sent
        }
        stream.outbound.append(bytes)
        if end { stream.state.endQueued() }
        return flush(stream, backlog: backlog, now: now)
    }

    /// Sends what the stream's window, the connection's window and the socket's backlog allow.
    mutating func flush(_ stream: HTTP2Stream, backlog: Int, now: UInt64) -> Progress {
        while stream.outbound.count > 0 {
            guard backlog + output.count < limits.maxConnectionBufferedBytes else {
                // The socket drains first; no more is queued on it meanwhile (CVE-2019-9517).
                scheduler.wait(stream)
                return .sent
            }
            let allowed = min(stream.sendWindow.available, window.available, maxFrameSize, stream.outbound.count)
            guard allowed > 0 else {
                scheduler.wait(stream)
                guard stream.outbound.stall == nil else { return .sent }
                stream.outbound.stall = HTTP2Outbound.Stall(since: now)
                return .stalled
            }
            // A window opened a few bytes at a time does not end a stall: its write-timeout clock
            // starts again only after a frame's worth went out (`stallProgressBytes`) or the queue emptied (below).
            if var stall = stream.outbound.stall {
                stall.sentSince += allowed
                stream.outbound.stall = stall.sentSince >= limits.stallProgressBytes ? nil : stall
            }
            let last = allowed == stream.outbound.count && stream.state.isEnding
            HTTP2FrameEncoder.appendData(streamID: stream.id, stream.outbound.take(allowed), endStream: last, into: &output)
            stream.sendWindow.consume(allowed)
            window.consume(allowed)
            if last { return .ended }
        }
        stream.outbound.stall = nil
        stream.outbound.compact()
        if stream.state.isEnding {
            HTTP2FrameEncoder.appendData(streamID: stream.id, [], endStream: true, into: &output)
            return .ended
        }
        return .sent
    }

    /// The streams the windows or the socket stopped, oldest first, taken off the waiting list.
    mutating func takeWaiting() -> [HTTP2Stream] {
        scheduler.isEmpty ? [] : scheduler.takeWaiting()
    }
}
