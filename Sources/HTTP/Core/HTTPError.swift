// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// An error that knows its answer: a handler's stream failing with one gets
/// `response(instance:)` (the request's path as `instance`); any other error
/// becomes a 500 problem.
public protocol HTTPResponseError: Error {
    func response(instance: String?) -> Response
}

/// An error a handler's stream can fail with to choose the response:
/// the server answers it as `Response.problem(status:detail:)`.
public struct HTTPError: HTTPResponseError, Sendable, CustomStringConvertible {
    public var status: HTTPStatus
    public var detail: String
    public var headers: HTTPHeaders

    public init(_ status: HTTPStatus, detail: String, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.detail = detail
        self.headers = headers
    }

    public var description: String { "\(status): \(detail)" }

    public func response(instance: String? = nil) -> Response {
        .problem(status: status, detail: detail, instance: instance, headers: headers)
    }
}
