// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Streams
import Tracing

/// A page of users, each with its avatar fetched and described (content type, size,
/// SHA-256, optionally a data: URI), and with `profile=true` its public profile too.
///
///     users page:    --[u1,u2,u3]|
///     one by one:    --u1-u2-u3|
///     per user:      avatar, or zip(avatar, profile) -- two requests, one result
///     serial:        concatMap(per user)               -- one user at a time
///     parallel:      redirect(maxConcurrent: n)(per user) -- up to n users at once, landing in any order
///     list:          toArray, then sorted back into upstream order
public struct UsersWithAvatarsPipeline: Sendable {
    public static let name = "users"
    /// The name its runs for `/users/stream` (`outcomes` without the final list) publish under.
    public static let streamName = "users-stream"
    public let client: GitHubClient

    public init(client: GitHubClient) {
        self.client = client
    }

    /// Each user as its avatar lands (parallel mode: not in upstream order).
    ///
    /// The fan-out runs inside the page's redirect (one page, so one inner stream), where an
    /// INTERNAL span `avatars` holds the avatars' exchanges when the client traces.
    public func outcomes(_ query: UsersQuery, trace: PipelineTrace? = nil) -> DataStream<AvatarOutcome> {
        let tracer = client.tracer
        let attach: @Sendable (AvatarAttachment) -> DataStream<AvatarOutcome> = { user in
            let avatar = avatarOutcome(user, trace: trace)
            guard query.profile else { return avatar }
            let profile = client.user(login: user.login, trace: trace).traced(trace, stage: "profile") { "\($0.login): \($0.name ?? "no name")" }
            return DataStream.zip(avatar, profile).map { outcome, profile in outcome.with(profile: profile) }
                .spanned("zip", by: client, trace: trace, attributes: ["streamservice.user.login": .string(user.login)])
        }
        return client.users(since: query.since, perPage: query.limit, trace: trace)
            .traced(trace, stage: "users") { "\($0.count) users" }
            .redirect { page in
                // By index, each user read where it is: `enumerated()` copied each out (a retain and
                // a release of its nine strings).
                let users = DataStream.from(page.indices.prefix(query.limit).map { AvatarAttachment(page[$0], index: $0, query: query, digests: client.avatarDigests) })
                let fanOut: DataStream<AvatarOutcome>
                switch query.avatars {
                case .serial: fanOut = users.concatMap(attach)
                case .parallel: fanOut = users.redirect(maxConcurrent: query.concurrency, attach)
                }
                guard tracer != nil else { return fanOut }
                return fanOut.spanned("avatars", by: client, trace: trace, attributes: [
                    "streamservice.fan_out.users": .int64(Int64(min(page.count, query.limit))),
                    "streamservice.fan_out.concurrency": .int64(Int64(query.avatars == .serial ? 1 : query.concurrency)),
                ])
            }
    }

    /// All users with avatars, in upstream order (skipped ones left out).
    public func list(_ query: UsersQuery, trace: PipelineTrace? = nil) -> DataStream<[UserWithAvatar]> {
        outcomes(query, trace: trace)
            .toArray()
            .spanned("toArray", by: client, trace: trace)
            .map { outcomes in outcomes.sorted { $0.index < $1.index }.compactMap(\.user) }
            .asSingle()
            .traced(trace, stage: "list") { "\($0.count) users" }
    }

    /// The user's avatar fetched and described, traced as the single it is (its value published
    /// with its end), or what its failure becomes under the query's policy.
    func avatarOutcome(_ user: AvatarAttachment, trace: PipelineTrace?) -> DataStream<AvatarOutcome> {
        if client.callFusing == .fused, let url = client.avatarURL(user.avatarUrl) {
            // The GET watched by the run's own watcher (`GitHubClient.watchGet`), with no stream of its own.
            return DataStream.handingOn { [client] downstream in
                AvatarRun(user, trace: trace, downstream: downstream).watch { client.watchGet(url, stage: user.stage, trace: trace, using: $0) }
            }
        }
        let fetched: DataStream<AvatarOutcome> = client.avatarURL(user.avatarUrl)
            .map { client.avatar(url: $0, login: user.login, trace: trace) { user.outcome($0, placeholder: false) } }
            ?? .just(error: UpstreamFailure(.malformed("avatar_url \(user.avatarUrl)"), stage: user.stage))
        return fetched
            .traced(trace, stage: "avatar", describe: { user.detail($0) }, valueEnds: true)
            .recover { user.recovered(from: $0) }
    }
}
