// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import Tracing

/// `zip` of the user and the summary of their repos: both requests run at once and the
/// profile appears when both have answered.
///
///     user:    ----u|
///     repos:   --[r]|  → map(RepoSummary)
///     zip:     ----(u,s)|  → map(UserProfile)
public struct ProfilePipeline: Sendable {
    public static let name = "profile"
    public let client: GitHubClient

    public init(client: GitHubClient) {
        self.client = client
    }

    public func profile(login: String, trace: PipelineTrace? = nil) -> DataStream<UserProfile> {
        let user = client.user(login: login, trace: trace).traced(trace, stage: "user") { $0.login }
        let summary = client.repos(login: login, trace: trace)
            .map(RepoSummary.init(repos:))
            .traced(trace, stage: "repos") { "\($0.count) repos" }
        return DataStream.zip(user, summary)
            .map { user, summary in
                UserProfile(
                    user: .init(id: user.id, login: user.login, name: user.name, avatarUrl: "/users/\(user.login)/avatar"),
                    repos: summary)
            }
            .spanned("zip", by: client, trace: trace, attributes: ["streamservice.user.login": .string(login)])
    }
}
