// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import HTTP
import Streams

/// `GET /users/{login}`: the user zipped with a summary of their repositories.
struct ProfileRoute: Sendable {
    let pipeline: ProfilePipeline
    let hub: PipelineEventHub

    func handle(_ request: Request, usage: UpstreamUsage? = nil) -> DataStream<Response> {
        let login = request.pathParameters["login"] ?? ""
        let trace = PipelineTrace(hub: hub, pipeline: ProfilePipeline.name, requestId: request.id, usage: usage, traceId: request.trace?.traceID, unrecorded: request.unrecordedTrace)
        return pipeline.profile(login: login, trace: trace)
            .map { profile in try JSONBody.response(profile) }
            .recover { error in DataStream.just(UpstreamProblem.response(for: error, subject: login, instance: request.path)) }
    }
}
