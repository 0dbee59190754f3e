// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import StreamServiceText
import Streams

/// One user of a page as `UsersWithAvatarsPipeline` attaches its avatar: the user's position
/// in the page, the three of its fields an outcome needs, and the query's choices, in one
/// object. The pipeline's stages pass it on and their closures capture it alone: as a tuple of
/// position and `GitHubUser` (a dozen strings), each copy in a stage or a closure's context
/// retained every string (the figure: Benchmarks/README.md).
final class AvatarAttachment: Sendable {
    let index: Int
    let id: Int
    let login: String
    let avatarUrl: String
    let embed: Bool
    let policy: UsersQuery.AvatarErrorPolicy
    /// Where the image's digest may be kept from an earlier request, by user id; nil: hashed every time.
    let digests: DigestMemo?

    init(_ user: GitHubUser, index: Int, query: UsersQuery, digests: DigestMemo? = nil) {
        self.index = index
        id = user.id
        login = user.login
        avatarUrl = user.avatarUrl
        embed = query.embed == .dataURI
        policy = query.onAvatarError
        self.digests = digests
    }

    var stage: UpstreamStage { .avatar(login) }

    /// The pipeline event's detail for a fetched image, `login: N bytes`, as `AvatarPipeline`'s
    /// `"\(n) bytes"` reads, but written into one string of its exact size: the interpolation
    /// (its buffer's growth, `Int.description`) cost more (the figure: Benchmarks/README.md).
    func detail(_ image: AvatarImage) -> String {
        detail(bytes: image.bytes.count)
    }

    /// `detail(_:)` of the image `outcome` describes (nil for a skipped one, which has none).
    func detail(_ outcome: AvatarOutcome) -> String? {
        outcome.user.map { detail(bytes: $0.avatar.bytes) }
    }

    private func detail(bytes: Int) -> String {
        ASCIIDigits.string(login, ": ", decimal: bytes, " bytes")
    }

    /// The user with `image` described.
    func outcome(_ image: AvatarImage, placeholder: Bool) -> AvatarOutcome {
        let sha256 = digests?.hex(of: image.bytes, key: id) ?? MessageDigest.sha256.hex(image.bytes)
        let metadata = AvatarMetadata(login: login, upstreamUrl: avatarUrl, image: image, sha256: sha256, embedDataURI: embed, placeholder: placeholder)
        return AvatarOutcome(index: index, result: .user(UserWithAvatar(id: id, login: login, avatar: metadata)))
    }

    /// What a failed fetch becomes under the query's `onAvatarError` policy.
    func recovered(from error: any Error) -> DataStream<AvatarOutcome> {
        switch recovery(from: error) {
        case .success(let outcome): .just(outcome)
        case .failure(let failure): .just(error: failure)
        }
    }

    /// `recovered(from:)`'s one event, an outcome (then the end) or the failure: what a fused
    /// avatar stage delivers itself (`AvatarRun`).
    func recovery(from error: any Error) -> Result<AvatarOutcome, UpstreamFailure> {
        let failure = error as? UpstreamFailure ?? UpstreamFailure(UpstreamError(classifying: error), stage: stage)
        switch policy {
        case .fail: return .failure(failure)
        case .placeholder: return .success(outcome(PlaceholderAvatar.image, placeholder: true))
        case .skip: return .success(AvatarOutcome(index: index, result: .skipped(login: login, error: failure)))
        }
    }
}
