// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Domain
import HTTP
import Streams
import NetCore
import Synchronization

/// `GET /users/stream`: Server-Sent Events, one `user` event as each avatar lands,
/// `error` events for skipped users (or one for a failure that ends the run), then
/// a final `end` event with counts, then the response ends. A client that
/// disconnects disposes the pipeline, which closes its upstream connections.
struct UsersStreamRoute: Sendable {
    let pipeline: UsersWithAvatarsPipeline
    let hub: PipelineEventHub
    let responder: EventStreamResponder

    struct Summary: Codable, Equatable {
        let users: Int
        let errors: Int
        let elapsedMs: Int
    }

    struct StreamError: Codable, Equatable {
        let login: String?
        let status: Int
        let detail: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(login, forKey: .login)
            try container.encode(status, forKey: .status)
            try container.encode(detail, forKey: .detail)
        }
    }

    /// Counts what the run sent, for the `end` summary.
    final class Tally: Sendable {
        private let counts = Locked((users: 0, errors: 0))
        let started = ContinuousClock.now

        func user() { counts.withLock { $0.users += 1 } }
        func error() { counts.withLock { $0.errors += 1 } }

        var summary: Summary {
            let elapsed = ContinuousClock.now - started
            let milliseconds = Int(elapsed.components.seconds) * 1000 + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
            return counts.withLock { Summary(users: $0.users, errors: $0.errors, elapsedMs: milliseconds) }
        }
    }

    func handle(_ request: Request, usage: UpstreamUsage? = nil) -> DataStream<Response> {
        request.withQuery(UsersQuery.init, ignoring: IgnoredQueryParameters.names) { query in
            let trace = PipelineTrace(hub: hub, pipeline: UsersWithAvatarsPipeline.streamName, requestId: request.id, usage: usage, traceId: request.trace?.traceID, unrecorded: request.unrecordedTrace)
            return .just(responder.response(Self.events(pipeline.outcomes(query, trace: trace))))
        }
    }

    static func events(_ outcomes: DataStream<AvatarOutcome>) -> DataStream<ServerSentEvent> {
        DataStream.deferred {
            let tally = Tally()
            let perUser = outcomes
                .map { outcome -> ServerSentEvent in
                    switch outcome.result {
                    case .user(let user):
                        tally.user()
                        return ServerSentEvent(event: "user", data: try json(user))
                    case .skipped(let login, let error):
                        tally.error()
                        let problem = UpstreamProblem.httpError(for: error, subject: "the avatar of \(login)")
                        return ServerSentEvent(event: "error", data: try json(StreamError(login: login, status: problem.status.code, detail: problem.detail)))
                    }
                }
                .recover { error -> DataStream<ServerSentEvent> in
                    tally.error()
                    let problem = UpstreamProblem.httpError(for: error, subject: "the user list")
                    let data = (try? json(StreamError(login: nil, status: problem.status.code, detail: problem.detail))) ?? "{}"
                    return .just(ServerSentEvent(event: "error", data: data))
                }
            let end = DataStream<ServerSentEvent>.deferred { DataStream.just(ServerSentEvent(event: "end", data: try json(tally.summary))) }
            return DataStream.concat(perUser, end)
        }
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONBody.encode(value), as: UTF8.self)
    }
}
