// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import HTTP
import Streams

/// `GET /users`: a page of users with avatar metadata, as one JSON array.
struct UsersRoute: Sendable {
    let pipeline: UsersWithAvatarsPipeline
    let hub: PipelineEventHub

    func handle(_ request: Request, usage: UpstreamUsage? = nil) -> DataStream<Response> {
        request.withQuery(UsersQuery.init, ignoring: IgnoredQueryParameters.names) { query in
            let trace = PipelineTrace(hub: hub, pipeline: UsersWithAvatarsPipeline.name, requestId: request.id, usage: usage, traceId: request.trace?.traceID, unrecorded: request.unrecordedTrace)
            return pipeline.list(query, trace: trace)
                .map { users in try JSONBody.response(users) }
                .recover { error in
                    DataStream.just(UpstreamProblem.response(for: error, subject: "the user list", instance: request.path))
                }
        }
    }
}
