/// What became of one user's avatar, with the user's position in the upstream page.
public struct AvatarOutcome: Sendable, Equatable {
    public enum Result: Sendable, Equatable {
        case user(UserWithAvatar)
        /// Only under `onAvatarError=skip`: the user is left out and an error reported.
        case skipped(login: String, error: UpstreamError)
    }

    public let index: Int
    public let result: Result

    public var user: UserWithAvatar? {
        if case .user(let user) = result { return user }
        return nil
    }
}
