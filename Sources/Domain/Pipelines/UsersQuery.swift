// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The parameters of `/users` and `/users/stream` (read from a request by the Server's
/// query-parameter parser).
public struct UsersQuery: Sendable, Equatable {
    public enum AvatarMode: String, Sendable, CaseIterable { case parallel, serial }
    public enum AvatarErrorPolicy: String, Sendable, CaseIterable { case fail, placeholder, skip }
    public enum Embed: String, Sendable, CaseIterable { case none, dataURI = "data-uri" }

    public static let limits = 1...100
    public static let concurrencies = 1...64

    public var since: Int
    public var limit: Int
    public var avatars: AvatarMode
    public var concurrency: Int
    public var onAvatarError: AvatarErrorPolicy
    public var embed: Embed
    /// Fetch each user's public profile (`GET /users/{login}`) beside the avatar: fills
    /// `name` and `profile`. Off by default: it doubles the upstream requests, and GitHub's
    /// list has no names.
    public var profile: Bool

    public init(
        since: Int = 0, limit: Int = 30, avatars: AvatarMode = .parallel, concurrency: Int = 8,
        onAvatarError: AvatarErrorPolicy = .fail, embed: Embed = .none, profile: Bool = false
    ) {
        self.since = since
        self.limit = limit
        self.avatars = avatars
        self.concurrency = concurrency
        self.onAvatarError = onAvatarError
        self.embed = embed
        self.profile = profile
    }
}
