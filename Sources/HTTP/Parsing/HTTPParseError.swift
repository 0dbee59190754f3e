// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Why a request could not be parsed; each maps to the status the client gets
/// before the connection is closed.
package enum HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    case requestLineTooLong
    case headersTooLarge(String)
    case bodyTooLarge
    case malformed(String)
    case unsupportedVersion
    case unsupportedTransferCoding
    case unsupportedExpectation

    package var status: HTTPStatus {
        switch self {
        case .requestLineTooLong: .uriTooLong
        case .headersTooLarge: .requestHeaderFieldsTooLarge
        case .bodyTooLarge: .payloadTooLarge
        case .malformed: .badRequest
        case .unsupportedVersion: .httpVersionNotSupported
        case .unsupportedTransferCoding: .notImplemented
        case .unsupportedExpectation: .expectationFailed
        }
    }

    package var description: String {
        switch self {
        case .requestLineTooLong: "request line too long"
        case .headersTooLarge(let why): why
        case .bodyTooLarge: "request body too large"
        case .malformed(let why): why
        case .unsupportedVersion: "only HTTP/1.0 and HTTP/1.1 are supported"
        case .unsupportedTransferCoding: "only the chunked transfer coding is supported"
        case .unsupportedExpectation: "only Expect: 100-continue is supported"
        }
    }
}
