/// What became of one user's avatar, with the user's position in the upstream page.
public struct AvatarOutcome: Sendable, Equatable {
    public enum Result: Sendable, Equatable {
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
