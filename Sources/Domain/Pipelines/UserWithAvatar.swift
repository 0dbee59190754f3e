/// One entry of `/users` and one `user` event of `/users/stream`.
public struct UserWithAvatar: Codable, Sendable, Equatable {
    public let id: Int
    public let login: String
    public let name: String?
    public let avatar: AvatarMetadata

    public init(id: Int, login: String, name: String?, avatar: AvatarMetadata) {
        self.id = id
        self.login = login
        self.name = name
        self.avatar = avatar
    }

    /// `name` is always present, null when unknown, as the API contract shows it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(login, forKey: .login)
        try container.encode(name, forKey: .name)
        try container.encode(avatar, forKey: .avatar)
    }
}
