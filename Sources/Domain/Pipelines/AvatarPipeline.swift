// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Streams

/// `/users/{login}/avatar`: looks the user up, then fetches the image their
/// `avatar_url` names.
public struct AvatarPipeline: Sendable {
    public static let name = "avatar"
    public let client: GitHubClient

    public init(client: GitHubClient) {
        self.client = client
    }

    public func avatar(login: String, trace: PipelineTrace? = nil) -> DataStream<AvatarImage> {
        client.user(login: login, trace: trace)
            .traced(trace, stage: "user") { $0.login }
            .redirect { user -> Single<AvatarImage> in
                guard let url = client.avatarURL(user.avatarUrl) else {
                    return .just(error: UpstreamFailure(.malformed("avatar_url \(user.avatarUrl)"), stage: .avatar(user.login)))
                }
                return client.avatar(url: url, login: user.login, trace: trace)
            }
            .asSingle()
            .traced(trace, stage: "avatar") { "\($0.bytes.count) bytes" }
    }
}
