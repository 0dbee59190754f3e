// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import HTTP
import Streams

/// `GET /events?pipeline=&kinds=`: the live feed of pipeline events, filtered,
/// resuming after `Last-Event-ID` from the feed's replay buffer.
///
/// Behind `--auth-protect events`, a subscriber gets only the pipelines its token's
/// `streamservice.subscribe` claim names (live and replayed alike), and its stream ends with
/// `event: expired` when the token does.
struct EventsRoute: Sendable {
    let feed: PipelineEventFeed
    let responder: EventStreamResponder
    var access: AccessControl?

    func handle(_ request: Request, caller: Caller? = nil) -> DataStream<Response> {
        request.withQuery(Self.filter, ignoring: IgnoredQueryParameters.names) { filter in
            let claims = access?.protects(.events) == true ? caller?.claims : nil
            if let access, access.protects(.events), let refusal = Self.refusal(claims, filter) {
                access.countRefusal(refusal)
                return .just(refusal.response(instance: request.path))
            }
            // Decided once here rather than for every event: a token that may read every pipeline.
            let limits = claims?.subscribe?.contains("*") == true ? nil : claims
            var events = feed.subscribe(after: request.lastEventID, on: request.loopScheduler?.loop) { item in
                PipelineEventFeed.admits(item, filter) && (limits?.maySubscribe(to: PipelineEventFeed.pipeline(of: item)) ?? true)
            }
            if let claims, let seconds = access?.secondsUntilExpiry(of: claims) {
                let scheduler: any Scheduler = request.loopScheduler ?? QueueScheduler(label: "events.expiry")
                events = TokenExpiry.ending(events, after: TokenExpiry.delay(seconds: seconds), on: scheduler)
            }
            return .just(responder.response(encoded: events))
        }
    }

    /// 403 for a token without a `streamservice.subscribe` claim, or asking for a pipeline it does not name.
    static func refusal(_ claims: JWTClaims?, _ filter: PipelineEventFilter) -> AuthRefusal? {
        guard let claims, let subscribe = claims.subscribe, !subscribe.isEmpty else {
            return .forbidden("reading /events (it needs a streamservice.subscribe claim)")
        }
        if let pipeline = filter.pipeline, !claims.maySubscribe(to: pipeline) {
            return .forbidden("reading the events of pipeline \(pipeline)")
        }
        return nil
    }

    /// The pipelines whose events the feed carries: a `?pipeline=` naming another (a typo such
    /// as `user`) would match nothing and stay silent forever, so it is refused instead.
    static let pipelines = [
        UsersWithAvatarsPipeline.name, UsersWithAvatarsPipeline.streamName, ProfilePipeline.name, AvatarPipeline.name,
        PipelineEventFeed.clockPipeline,
    ]

    /// `?pipeline=` (one of `pipelines`; empty: any) and `?kinds=` (comma list; empty: any).
    static func filter(_ parameters: QueryParameters) throws(InvalidQueryParameter) -> PipelineEventFilter {
        PipelineEventFilter(
            pipeline: try parameters.value("pipeline", among: pipelines),
            kinds: try parameters.choices("kinds", of: PipelineEvent.Kind.self))
    }
}
