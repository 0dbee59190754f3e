// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// libFuzzer entry for RequestParser (built by scripts/fuzz-parser).
//
// Each input is parsed twice: in one piece, and split at points derived from
// the input itself. Both parsers must report exactly the same requests and
// failures (an incremental parser must not depend on how bytes arrive), and
// every request must respect the limits. Any divergence traps, which
// libFuzzer records as a crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var limits = HTTPLimits()
    // Small limits so the fuzzer reaches every limit path quickly.
    limits.maxRequestLineBytes = 200
    limits.maxHeaderBytes = 600
    limits.maxHeaderFields = 12
    limits.maxBodyBytes = 2000
    let input = UnsafeRawBufferPointer(start: data, count: size)

    var whole = RequestParser(limits: limits)
    var wholeLog: [String] = []
    whole.feed(input) { wholeLog.append(describe($0, limits: limits)) }

    var split = RequestParser(limits: limits)
    var splitLog: [String] = []
    forEachPiece(of: input) { piece in split.feed(piece) { splitLog.append(describe($0, limits: limits)) } }
    precondition(wholeLog == splitLog, "split feeding changed the result:\n\(wholeLog)\nvs\n\(splitLog)")
    precondition(whole.hasFailed == split.hasFailed)
    return 0
}

private func describe(_ output: RequestParser.Output, limits: HTTPLimits) -> String {
    switch output {
    case .continueExpected(let head):
        return "continue \(head.method) \(head.target.text)"
    case .request(let head, let notes, let body):
        precondition(body.count <= limits.maxBodyBytes, "body over the limit")
        precondition(head.headers.count <= limits.maxHeaderFields, "too many fields accepted")
        precondition(!(head.isChunked && head.contentLength != nil), "both framings accepted")
        precondition(head.version != .http1_1 || head.headers["Host"] != nil, "HTTP/1.1 without Host accepted")
        for (name, value) in head.headers {
            precondition(!name.utf8.contains(where: { $0 < 33 || $0 == 58 || $0 == 127 }), "bad header name accepted")
            precondition(!value.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }), "CR/LF/NUL in a value accepted")
        }
        if let length = head.contentLength { precondition(body.count == length, "body length differs from Content-Length") }
        // Everything the parser notes, so a head replayed from the last one's field block (whole
        // feeding) must match the same head read line by line (split feeding).
        let fields = head.headers.map { "\($0.name): \($0.value)" }
        // The parser's split of the target must be the general rule's.
        precondition(head.target == ParsedTarget.splitInGeneral(head.target.text), "target split differs from the general rule")
        let facts = "\(String(describing: notes.requestID)) \(String(describing: notes.userAgent)) "
            + "\(notes.persists(in: head.version)) \(head.target.path) \(head.target.query) \(head.expectsContinue) \(head.isChunked)"
        return "request \(head.method) \(head.target.text) \(head.version) \(fields) \(facts), body \(body)"
    case .failure(let error):
        return "failure \(error)"
    }
}
