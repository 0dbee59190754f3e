#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Streams

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
    public let client: GitHubClient

    public init(client: GitHubClient) {
        self.client = client
    }

    /// Each user as its avatar lands (parallel mode: not in upstream order).
    public func outcomes(_ query: UsersQuery, trace: PipelineTrace? = nil) -> DataStream<AvatarOutcome> {
        let users = client.users(since: query.since, perPage: query.limit, trace: trace)
            .traced(trace, stage: "users") { "\($0.count) users" }
            .redirect { page in DataStream.from(Array(page.prefix(query.limit).enumerated())) }
        let attach: @Sendable ((offset: Int, element: GitHubUser)) -> DataStream<AvatarOutcome> = { entry in
            let avatar = avatarOutcome(for: entry.element, index: entry.offset, query: query, trace: trace)
            guard query.profile else { return avatar }
            let login = entry.element.login
            let profile = client.user(login: login, trace: trace).traced(trace, stage: "profile") { "\($0.login): \($0.name ?? "no name")" }
            return DataStream.zip(avatar, profile).map { outcome, profile in outcome.with(profile: profile) }
        }
        switch query.avatars {
        case .serial: return users.concatMap(attach)
        case .parallel: return users.redirect(maxConcurrent: query.concurrency, attach)
        }
    }

    /// All users with avatars, in upstream order (skipped ones left out).
    public func list(_ query: UsersQuery, trace: PipelineTrace? = nil) -> DataStream<[UserWithAvatar]> {
        outcomes(query, trace: trace)
            .toArray()
            .map { outcomes in outcomes.sorted { $0.index < $1.index }.compactMap(\.user) }
            .traced(trace, stage: "list") { "\($0.count) users" }
    }

    func avatarOutcome(for user: GitHubUser, index: Int, query: UsersQuery, trace: PipelineTrace?) -> DataStream<AvatarOutcome> {
        let embed = query.embed == .dataURI
        let describe: @Sendable (AvatarImage, Bool) -> AvatarOutcome = { image, placeholder in
            let metadata = AvatarMetadata(login: user.login, upstreamUrl: user.avatarUrl, image: image, embedDataURI: embed, placeholder: placeholder)
            return AvatarOutcome(index: index, result: .user(UserWithAvatar(id: user.id, login: user.login, avatar: metadata)))
        }
        let policy = query.onAvatarError
        let stage = UpstreamStage.avatar(user.login)
        let image: DataStream<AvatarImage> = URL(string: user.avatarUrl).map { client.avatar(url: $0, login: user.login, trace: trace) }
            ?? .just(error: UpstreamFailure(.malformed("avatar_url \(user.avatarUrl)"), stage: stage))
        return image
            .traced(trace, stage: "avatar") { "\(user.login): \($0.bytes.count) bytes" }
            .map { image in describe(image, false) }
            .recover { error -> DataStream<AvatarOutcome> in
                let failure = error as? UpstreamFailure ?? UpstreamFailure(UpstreamError(classifying: error), stage: stage)
                switch policy {
                case .fail:
                    return .just(error: failure)
                case .placeholder:
                    return .just(describe(PlaceholderAvatar.image, true))
                case .skip:
                    return .just(AvatarOutcome(index: index, result: .skipped(login: user.login, error: failure)))
                }
            }
    }
}
