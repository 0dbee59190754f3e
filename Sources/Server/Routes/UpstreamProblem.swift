// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import HTTP
import StreamServiceConcurrency

/// How upstream failures become problem+json answers: 404 for an unknown user, 503 +
/// `Retry-After` for a rate limit, 504 for timeouts, 502 for the rest. The detail names
/// the stage that failed ("the avatar of ada1") and mentions retries only when some were spent.
enum UpstreamProblem {
    /// - Parameter subject: what the request was about, for a failure that names no stage.
    static func httpError(for error: Error, subject: String) -> HTTPError {
        if let httpError = error as? HTTPError { return httpError }
        let failure = error as? UpstreamFailure
        let upstreamError = failure?.error ?? UpstreamError(classifying: error)
        let about = failure.map { "\($0.stage)" } ?? subject
        let afterRetries = failure.map { $0.retries > 0 ? ", after \($0.retries) retries" : "" } ?? ""
        switch upstreamError {
        case .status(404, _) where failure?.stage.isAboutTheUser ?? false:
            return HTTPError(.notFound, detail: "Unknown user: \(Self.login(of: failure!.stage) ?? subject)")
        case .rateLimited(let seconds):
            return HTTPError(
                .serviceUnavailable,
                detail: "The upstream rate limit is exhausted (fetching \(about)); retry after \(seconds) seconds",
                headers: ["Retry-After": String(seconds)])
        case .timeout(let after):
            return HTTPError(.gatewayTimeout, detail: "The upstream did not answer within \(after.text) (the per-attempt timeout) for \(about)\(afterRetries)")
        case .deadlineExceeded(let after):
            return HTTPError(.gatewayTimeout, detail: "The upstream gave no usable answer within \(after.text) (the deadline of the whole call) for \(about)\(afterRetries)")
        case .status(let code, _):
            return HTTPError(.badGateway, detail: "The upstream answered \(code) for \(about)\(afterRetries)")
        case .connection(let reason):
            return HTTPError(.badGateway, detail: "The upstream could not be reached for \(about)\(afterRetries): \(reason)")
        case .malformed(let reason):
            return HTTPError(.badGateway, detail: "The upstream answer for \(about) was not understood: \(reason)")
        }
    }

    static func response(for error: Error, subject: String, instance: String) -> Response {
        httpError(for: error, subject: subject).response(instance: instance)
    }

    static func login(of stage: UpstreamStage) -> String? {
        switch stage {
        case .user(let login), .repos(let login), .avatar(let login): login
        case .users: nil
        }
    }
}
