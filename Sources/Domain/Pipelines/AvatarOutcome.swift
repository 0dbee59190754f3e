// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What became of one user's avatar, with the user's position in the upstream page.
public struct AvatarOutcome: Sendable, Equatable {
    /// Boxed (`indirect`): an outcome is copied on every stage it passes and in the sort back
    /// into upstream order, and copying a user's dozen strings each time is a retain per string;
    /// a box is one retain (the figure: Benchmarks/README.md).
    public indirect enum Result: Sendable, Equatable {
        case user(UserWithAvatar)
        /// Only under `onAvatarError=skip`: the user is left out and an error reported.
        case skipped(login: String, error: UpstreamFailure)
    }

    public let index: Int
    public let result: Result

    public var user: UserWithAvatar? {
        if case .user(let user) = result { return user }
        return nil
    }

    /// This outcome with the user's public profile attached (a skipped user stays skipped).
    public func with(profile: GitHubUser) -> AvatarOutcome {
        guard case .user(let user) = result else { return self }
        return AvatarOutcome(index: index, result: .user(user.with(profile: profile)))
    }
}
