// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import HTTP
import NetCore
import Streams

/// `GET /users/{login}/avatar`: the image bytes with a content-hash `ETag`;
/// a matching `If-None-Match` gets `304 Not Modified` without the body.
struct AvatarRoute: Sendable {
    let pipeline: AvatarPipeline
    let hub: PipelineEventHub

    func handle(_ request: Request, usage: UpstreamUsage? = nil) -> DataStream<Response> {
        let login = request.pathParameters["login"] ?? ""
        let trace = PipelineTrace(hub: hub, pipeline: AvatarPipeline.name, requestId: request.id, usage: usage, traceId: request.trace?.traceID, unrecorded: request.unrecordedTrace)
        let ifNoneMatch = request.headers["If-None-Match"]
        return pipeline.avatar(login: login, trace: trace)
            .map { image in Self.response(for: image, ifNoneMatch: ifNoneMatch) }
            .recover { error in DataStream.just(UpstreamProblem.response(for: error, subject: login, instance: request.path)) }
    }

    static func response(for image: AvatarImage, ifNoneMatch: String?) -> Response {
        let etag = EntityTag.strong(for: image.bytes)
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": "max-age=3600"]
        if let ifNoneMatch, EntityTag.matches(ifNoneMatch, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: image.contentType)
        return Response(status: .ok, headers: headers, body: .bytes(image.bytes))
    }
}
