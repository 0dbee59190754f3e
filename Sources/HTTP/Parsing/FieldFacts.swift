// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What a request head's field block said (RFC 9112 §5): the field list, the framing fields'
/// values as `finishHead` judges them (RFC 9112 §6.3), and what the parser notes for its
/// connection. One value, so a repeated block is replayed by one assignment (`HeadReplay`),
/// and a field the parser must notice is added here alone: a `Kind`, where its value goes.
struct FieldFacts {
    /// The fields the parser must notice, recognised from the raw name (ASCII
    /// case-insensitive) before any string is made of it.
    enum Kind {
        case host, contentLength, transferEncoding, expect, requestID, connection, userAgent, traceparent

        init?(_ name: UnsafeRawBufferPointer) {
            switch name.count {
            case 4: if HTTPSyntax.sameToken(name, "host") { self = .host; return }
            case 6: if HTTPSyntax.sameToken(name, "expect") { self = .expect; return }
            case 10:
                if HTTPSyntax.sameToken(name, "connection") { self = .connection; return }
                if HTTPSyntax.sameToken(name, "user-agent") { self = .userAgent; return }
            case 11: if HTTPSyntax.sameToken(name, "traceparent") { self = .traceparent; return }
            case 12: if HTTPSyntax.sameToken(name, "x-request-id") { self = .requestID; return }
            case 14: if HTTPSyntax.sameToken(name, "content-length") { self = .contentLength; return }
            case 17: if HTTPSyntax.sameToken(name, "transfer-encoding") { self = .transferEncoding; return }
            default: break
            }
            return nil
        }
    }

    var headers = HTTPHeaders()
    var hostCount = 0
    var contentLengths: [String] = []
    var transferCodings: [String] = []
    /// The first `Expect` field's value.
    var expectation: String?
    var notes = HeadNotes()

    /// Between requests: nothing allocated.
    init() {}

    /// One valid field: into the list, and into what its kind says.
    mutating func add(_ name: String, _ value: String, kind: Kind?, valueBytes: UnsafeRawBufferPointer) {
        switch kind {
        case .host: hostCount += 1
        case .contentLength: contentLengths.append(value)
        case .transferEncoding: transferCodings.append(value)
        case .expect: if expectation == nil { expectation = value }
        case .requestID: if notes.requestID == nil { notes.requestID = value }
        case .userAgent: if notes.userAgent == nil { notes.userAgent = value }
        case .connection: notes.connection.add(valueBytes)
        case .traceparent: notes.hasTraceparent = true
        case nil: break
        }
        // Made with the first field: a block with no fields allocates no list. Eight fields
        // before the list regrows: wrk sends 1, curl 3, a browser about 10.
        if headers.isEmpty { headers = HTTPHeaders(reservingCapacity: 8) }
        headers.add(name: name, value: value)
    }
}
