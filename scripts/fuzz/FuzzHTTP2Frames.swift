// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// libFuzzer entry for HTTP2FrameDecoder (built by scripts/fuzz-http2).
//
// Each input is decoded twice: in one piece, and split at points derived from the input itself.
// Both must yield the same frames and the same error (a frame decoder must not depend on how
// bytes arrive). Every frame decoded is written again by HTTP2FrameEncoder (unpadded) and must
// decode to itself. Any divergence traps, which libFuzzer records as a crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP2Frames(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    // A small SETTINGS_MAX_FRAME_SIZE would refuse most inputs at once; the protocol minimum, as a server uses.
    var whole = HTTP2FrameDecoder(maxFrameSize: 16_384)
    whole.append(input)
    let wholeLog = drain(&whole)

    var split = HTTP2FrameDecoder(maxFrameSize: 16_384)
    var splitLog: [String] = []
    var failed = false
    forEachPiece(of: input) { piece in
        guard !failed else { return }
        split.append(piece)
        let log = drain(&split)
        splitLog += log
        failed = log.last?.hasPrefix("error") == true
    }
    precondition(wholeLog == splitLog, "split feeding changed the result:\n\(wholeLog)\nvs\n\(splitLog)")
    return 0
}

private func drain(_ decoder: inout HTTP2FrameDecoder) -> [String] {
    var log: [String] = []
    while true {
        do {
            guard let frame = try decoder.next() else { return log }
            var bytes: [UInt8] = []
            HTTP2FrameEncoder.append(frame, into: &bytes)
            var again = HTTP2FrameDecoder(maxFrameSize: 1 << 24)
            again.append(bytes)
            let reread = try? again.next()
            precondition(reread?.payload == frame.payload && reread?.streamID == frame.streamID,
                         "re-encoded frame differs: \(frame) vs \(String(describing: reread))")
            log.append("frame \(frame.type.rawValue) \(frame.streamID) \(frame.flags.rawValue) \(frame.payload)")
        } catch {
            log.append("error \(error)")
            return log
        }
    }
}
