// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// libFuzzer entry for the upstream client's HTTPResponseParser (built by scripts/fuzz-response-parser).
//
// Each input is one upstream answer, parsed twice: in one piece, and split at points derived from
// the input itself. Both must end the same way (the same response, or both still waiting, or both
// failing), because an incremental parser must not depend on how bytes arrive; the peer's close at
// the end must then either complete the answer or report it truncated. Every completed response
// must be well formed. The input is also read as field lines by the one-pass reader and its slow
// twin (`plainFieldLine`, `checkedFieldLine`), which must agree; and the whole answer is parsed by a
// parser reading every head the slow way (`headEnd`, then `parseHead`), which must end as the
// one-pass head walk (`parseWholeHead`) did. Any divergence traps, which libFuzzer records as a crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponseParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    // The first byte picks the request method, so HEAD answers (never a body) are covered too.
    let method: HTTPMethod = input.first.map { $0 & 1 == 0 ? .get : .head } ?? .get

    let whole = outcome(of: [input], method: method)
    var pieces: [[UInt8]] = []
    var offset = 0
    var step = size > 0 ? Int(input[0] % 7) + 1 : 1
    while offset < size {
        let end = min(size, offset + step)
        pieces.append(Array(input[offset..<end]))
        offset = end
        step = Int(input[offset % max(size, 1)] % 13) + 1
    }
    let split = outcome(of: pieces, method: method)
    precondition(whole == split, "split feeding changed the result:\n\(whole)\nvs\n\(split)")
    let slow = outcome(of: [input], method: method, onePassHeads: false)
    precondition(whole == slow, "the one-pass head walk differs from its twin:\n\(whole)\nvs\n\(slow)")
    checkFieldLines(input)
    return 0
}

/// The input read as a block of field lines by the one-pass reader and by its slow twin: wherever
/// the fast one answers, the twin gives the same name, value and end.
private func checkFieldLines(_ input: [UInt8]) {
    input.withUnsafeBytes { lines in
        var start = 0
        while start < lines.count {
            let checked = HTTPResponseParser.checkedFieldLine(in: lines, from: start)
            if let plain = HTTPResponseParser.plainFieldLine(in: lines, from: start) {
                precondition(plain == checked, "the one-pass field line reader differs from its twin at \(start)")
            }
            guard let checked else { return }
            start = checked.end + 2
        }
    }
}

private enum Outcome: Equatable {
    case complete(HTTPClientResponse)
    case failed(String)
    case closedAfter(String)
}

/// Feeds `pieces` in order until the parser completes or fails, then tells it the peer closed.
private func outcome(of pieces: [[UInt8]], method: HTTPMethod, onePassHeads: Bool = true) -> Outcome {
    var parser = HTTPResponseParser(requestMethod: method, onePassHeads: onePassHeads)
    for piece in pieces {
        do {
            // `reusable` is left out: it depends on whether bytes after the answer were fed yet.
            if case .complete(let response, _) = try parser.feed(piece) {
                check(response, method: method)
                return .complete(response)
            }
        } catch {
            return .failed("\(error)")
        }
    }
    do {
        let response = try parser.connectionClosed()
        check(response, method: method)
        return .closedAfter("complete \(response.status.code) \(response.body.count) bytes")
    } catch {
        return .closedAfter("\(error)")
    }
}

private func check(_ response: HTTPClientResponse, method: HTTPMethod) {
    let code = response.status.code
    precondition((100...599).contains(code), "status \(code) accepted")
    if method == .head || code == 204 || code == 304 || (100..<200).contains(code) {
        precondition(response.body.isEmpty, "a body on an answer that has none")
    }
    for field in response.headers {
        precondition(!field.name.isEmpty && field.name.utf8.allSatisfy(HTTPSyntax.isTokenCharacter), "bad header name accepted: \(field.name)")
        precondition(field.value.utf8.allSatisfy(HTTPSyntax.isFieldValueCharacter), "CR/LF/NUL in a header value accepted")
    }
    // The fields kept as bytes read as the list made of them: by name in any case, the first value.
    if let received = response.received {
        let headers = response.headers
        precondition(received.count == headers.count, "field count differs from the list's")
        for field in headers {
            precondition(received[field.name.uppercased()] == headers[field.name], "lookup of \(field.name) differs from the list's")
        }
    }
}
