// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceJSON

/// The few public-profile fields `/users?profile=true` adds to each user, read from
/// GitHub's `GET /users/{login}` (`public-user`).
///
/// Two JSON writers on purpose: `encode(to:)` is the reference, `writeJSON` the fast path;
/// `AnswerJSONTests.testUsersWithProfilesAreByteIdenticalToJSONEncoders` holds their bytes equal.
public struct PublicProfile: Codable, Sendable, Equatable {
    public let company: String?
    public let location: String?
    public let bio: String?
    public let publicRepos: Int?
    public let followers: Int?

    public init(_ user: GitHubUser) {
        company = user.company
        location = user.location
        bio = user.bio
        publicRepos = user.publicRepos
        followers = user.followers
    }

    /// Every field is written, null when GitHub has none, so clients see one shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(company, forKey: .company)
        try container.encode(location, forKey: .location)
        try container.encode(bio, forKey: .bio)
        try container.encode(publicRepos, forKey: .publicRepos)
        try container.encode(followers, forKey: .followers)
    }
}

extension PublicProfile: JSONWritable {
    /// The bytes `encode(to:)` gives through `JSONEncoder` (sorted keys, nulls written), written directly.
    public func writeJSON(to json: inout JSONOutput) {
        json.object { json in
            json.field("bio", bio)
            json.field("company", company)
            json.field("followers", followers)
            json.field("location", location)
            json.field("publicRepos", publicRepos)
        }
    }
}
