// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// A handler's stream failed with an error that is not an `HTTPResponseError`: the client got a
/// generic 500 naming the request id, and this, with the error itself, goes to
/// `HTTPServerObserver.handlerFailed` — an error's text (host names, file paths, whatever it says)
/// is for the operator's log, never for the client.
public struct HandlerFailure: Sendable {
    /// The error the handler's stream failed with.
    public let error: any Error
    /// The failed request's method.
    public let method: HTTPMethod
    /// The failed request's path.
    public let path: String
    /// The request id the client's problem document quotes, so a report finds the log line.
    public let requestID: String
    /// The client's address, as `host:port`.
    public let remoteAddress: String

    /// The problem a client gets for it: no word of the error, the request id instead.
    public var response: Response {
        .problem(
            status: .internalServerError,
            detail: "The request failed inside the server; quote request id \(requestID) when reporting it",
            instance: path)
    }
}

extension Request {
    /// The response a handler's first event makes of this request: its value; an
    /// `HTTPResponseError`'s own problem; for any other error the generic 500 of `HandlerFailure`
    /// (reported to `observer`); a 500 for a stream that ended without an answer. The server and
    /// `RouterTestClient` both answer through this, so a route's test sees what a client would.
    package func answer(to event: Event<Response>, observer: HTTPServerObserver) -> Response {
        switch event {
        case .data(let response):
            return response
        case .error(let error as any HTTPResponseError):
            return error.response(instance: path)
        case .error(let error):
            let failure = HandlerFailure(error: error, method: method, path: path, requestID: id, remoteAddress: remoteAddress)
            observer.handlerFailed?(failure)
            return failure.response
        case .end:
            return .problem(status: .internalServerError, detail: "The handler produced no response", instance: path)
        }
    }
}
