/// The parameters of `/users` and `/users/stream`, validated.
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

    /// Reads the query parameters through `value(name)`; absent ones take their defaults.
    public static func parse(_ value: (String) -> String?) throws(QueryParameterError) -> UsersQuery {
        var query = UsersQuery()
        query.since = try integer("since", value("since"), in: 0...Int(Int32.max), default: query.since)
        query.limit = try integer("limit", value("limit"), in: limits, default: query.limit)
        query.concurrency = try integer("concurrency", value("concurrency"), in: concurrencies, default: query.concurrency)
        query.avatars = try choice("avatars", value("avatars"), default: query.avatars)
        query.onAvatarError = try choice("onAvatarError", value("onAvatarError"), default: query.onAvatarError)
        query.embed = try choice("embed", value("embed"), default: query.embed)
        query.profile = try choice("profile", value("profile"), default: Flag(query.profile)).isOn
        return query
    }

    static func integer(_ name: String, _ text: String?, in range: ClosedRange<Int>, default fallback: Int) throws(QueryParameterError) -> Int {
        guard let text else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw QueryParameterError(parameter: name, reason: "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ text: String?, default fallback: T) throws(QueryParameterError) -> T
    where T.RawValue == String {
        guard let text else { return fallback }
        guard let value = T(rawValue: text) else {
            throw QueryParameterError(parameter: name, reason: "must be one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return value
    }
}

/// A boolean query parameter, spelled `true` or `false`.
enum Flag: String, CaseIterable {
    case on = "true", off = "false"

    init(_ value: Bool) { self = value ? .on : .off }
    var isOn: Bool { self == .on }
}

/// A query parameter that failed validation; routes answer 400 naming it.
public struct QueryParameterError: Error, Sendable, Equatable, CustomStringConvertible {
    public let parameter: String
    public let reason: String

    public init(parameter: String, reason: String) {
        self.parameter = parameter
        self.reason = reason
    }

    public var description: String { "\(parameter) \(reason)" }
}
