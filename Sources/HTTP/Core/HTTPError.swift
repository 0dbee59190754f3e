// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// An error that knows its answer: a handler's stream failing with one gets
/// `response(instance:)` (the request's path as `instance`); any other error
/// becomes a 500 problem.
public protocol HTTPResponseError: Error {
    /// The answer to send for this error.
    ///
    /// - Parameter instance: The request's path, for the problem document's `instance` member.
    func response(instance: String?) -> Response
}

/// An error a handler's stream can fail with to choose the response:
/// the server answers it as `Response.problem(status:detail:)`.
public struct HTTPError: HTTPResponseError, Sendable, CustomStringConvertible {
    /// The status of the answer.
    public var status: HTTPStatus
    /// The problem's `detail`: said to the client, so it names what the client can act on.
    public var detail: String
    /// Fields the answer carries besides `Content-Type` (`Retry-After`, `Allow`).
    public var headers: HTTPHeaders

    /// An error answered with `status` and a problem document saying `detail`.
    public init(_ status: HTTPStatus, detail: String, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.detail = detail
        self.headers = headers
    }

    /// The status and the detail.
    public var description: String { "\(status): \(detail)" }

    /// This error as an RFC 9457 problem response.
    public func response(instance: String? = nil) -> Response {
        .problem(status: status, detail: detail, instance: instance, headers: headers)
    }
}
