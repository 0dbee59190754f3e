// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// libFuzzer entry for RESPParser (built by scripts/fuzz-resp).
//
// Each input is parsed twice: in one piece, and split at points derived from
// the input itself. Both parsers must report exactly the same values and
// failures (the result must not depend on how bytes arrive from the socket),
// every value must respect the limits, and every value must survive an
// encode-then-parse round trip unchanged. Any divergence traps, which
// libFuzzer records as a crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRESPParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var limits = RESPLimits()
    // Small limits so the fuzzer reaches every limit path quickly.
    limits.maxLineBytes = 40
    limits.maxBulkBytes = 300
    limits.maxArrayCount = 20
    limits.maxDepth = 4
    let input = UnsafeRawBufferPointer(start: data, count: size)

    var whole = RESPParser(limits: limits)
    var wholeLog: [RESPParser.Output] = []
    whole.feed(input) { wholeLog.append($0) }

    var split = RESPParser(limits: limits)
    var splitLog: [RESPParser.Output] = []
    forEachPiece(of: input) { piece in split.feed(piece) { splitLog.append($0) } }
    precondition(wholeLog == splitLog, "split feeding changed the result:\n\(wholeLog)\nvs\n\(splitLog)")
    precondition(whole.hasFailed == split.hasFailed)
    precondition(wholeLog.filter { if case .failure = $0 { true } else { false } }.count <= 1, "more than one failure")

    for output in wholeLog {
        guard case .value(let value) = output else { continue }
        check(value, limits: limits, depth: 0)
        // Default limits: re-encoding turns an invalid UTF-8 byte of a line into U+FFFD's three bytes.
        var again = RESPParser()
        var reparsed: [RESPParser.Output] = []
        again.feed(RESPEncoder.encode(value)) { reparsed.append($0) }
        precondition(reparsed == [.value(value)], "round trip changed \(value) into \(reparsed)")
    }
    return 0
}

private func check(_ value: RESPValue, limits: RESPLimits, depth: Int) {
    switch value {
    case .simpleString(let text), .error(let text):
        // Scalars, not UTF-8 bytes: an invalid byte decodes to one U+FFFD of three bytes.
        precondition(text.unicodeScalars.count <= limits.maxLineBytes, "line over the limit")
        precondition(!text.utf8.contains(10), "LF inside a line")
    case .bulkString(let bytes):
        precondition(bytes.count <= limits.maxBulkBytes, "bulk over the limit")
    case .array(let values):
        // The limit counts arrays awaiting elements; an empty one at the bottom awaits none.
        precondition(depth < limits.maxDepth || values.isEmpty, "nesting over the limit")
        precondition(values.count <= limits.maxArrayCount, "array over the limit")
        for element in values { check(element, limits: limits, depth: depth + 1) }
    case .integer, .null:
        break
    }
}
