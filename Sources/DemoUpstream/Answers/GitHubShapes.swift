// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The demo's bodies in the shapes of GitHub's published schemas (github/rest-api-description,
/// `components/schemas`): every required field, and no field GitHub's own answers lack.
///
/// - `simple-user` for `/users` items (no `name`: GitHub's list has none);
/// - `public-user` for `/users/{login}`;
/// - `minimal-repository` for `/users/{login}/repos` items.
struct GitHubShapes: Hashable, Sendable {
    /// `http://host:port` of the API, as the client addressed it.
    let api: String
    /// `http://host:port` of the avatar origin.
    let avatars: String

    func avatarURL(of user: DemoUser) -> String {
        // Some users' avatar_url goes through a redirect on the API origin to the avatar
        // origin (as github.com/{login}.png does), so clients meet cross-origin redirects.
        user.avatarBehindRedirect ? "\(api)/\(user.login).png" : "\(avatars)/u/\(user.id)?v=4"
    }

    func simpleUser(_ user: DemoUser) -> [String: DemoJSON] {
        let base = "\(api)/users/\(user.login)"
        return [
            "login": .string(user.login), "id": .int(user.id), "node_id": .string(Self.nodeID("04:User", user.id)),
            "avatar_url": .string(avatarURL(of: user)), "gravatar_id": .string(""),
            "url": .string(base), "html_url": .string("https://github.com/\(user.login)"),
            "followers_url": .string("\(base)/followers"), "following_url": .string("\(base)/following{/other_user}"),
            "gists_url": .string("\(base)/gists{/gist_id}"), "starred_url": .string("\(base)/starred{/owner}{/repo}"),
            "subscriptions_url": .string("\(base)/subscriptions"), "organizations_url": .string("\(base)/orgs"),
            "repos_url": .string("\(base)/repos"), "events_url": .string("\(base)/events{/privacy}"),
            "received_events_url": .string("\(base)/received_events"), "type": .string("User"),
            "user_view_type": .string("public"), "site_admin": .bool(false),
        ]
    }

    func publicUser(_ user: DemoUser, repoCount: Int) -> [String: DemoJSON] {
        simpleUser(user).merging([
            "name": .optional(user.name), "company": .optional(user.company), "blog": .string(user.blog),
            "location": .optional(user.location), "email": .null, "hireable": .null, "bio": .optional(user.bio),
            "twitter_username": .null, "public_repos": .int(repoCount), "public_gists": .int(user.id % 7),
            "followers": .int(user.followers), "following": .int(user.following),
            "created_at": .string(user.createdAt), "updated_at": .string(user.createdAt),
        ]) { _, profile in profile }
    }

    func minimalRepository(_ repo: DemoRepo, owner: DemoUser) -> [String: DemoJSON] {
        let full = "\(owner.login)/\(repo.name)"
        let base = "\(api)/repos/\(full)"
        var fields: [String: DemoJSON] = [
            "id": .int(repo.id), "node_id": .string(Self.nodeID("010:Repository", repo.id)), "name": .string(repo.name),
            "full_name": .string(full), "owner": .object(simpleUser(owner)), "private": .bool(false),
            "html_url": .string("https://github.com/\(full)"), "description": .optional(repo.description),
            "fork": .bool(false), "url": .string(base), "language": .optional(repo.language),
            "created_at": .string(repo.createdAt), "updated_at": .string(repo.createdAt), "pushed_at": .string(repo.createdAt),
            "default_branch": .string("main"), "visibility": .string("public"), "archived": .bool(false),
            "disabled": .bool(false), "topics": .array([]),
        ]
        // `stargazers_count` and friends are optional in `minimal-repository`; some demo repos
        // leave them out so clients are exercised on bodies without them.
        if let stars = repo.stars {
            fields["stargazers_count"] = .int(stars)
            fields["watchers_count"] = .int(stars)
            fields["forks_count"] = .int(stars / 10)
        }
        for (name, template) in Self.repositoryURLTemplates {
            fields[name] = .string(base + template)
        }
        return fields
    }

    /// The `*_url` fields of `minimal-repository` (all required), relative to the repo's API URL.
    static let repositoryURLTemplates: [(String, String)] = [
        ("archive_url", "/{archive_format}{/ref}"), ("assignees_url", "/assignees{/user}"),
        ("blobs_url", "/git/blobs{/sha}"), ("branches_url", "/branches{/branch}"),
        ("collaborators_url", "/collaborators{/collaborator}"), ("comments_url", "/comments{/number}"),
        ("commits_url", "/commits{/sha}"), ("compare_url", "/compare/{base}...{head}"),
        ("contents_url", "/contents/{+path}"), ("contributors_url", "/contributors"),
        ("deployments_url", "/deployments"), ("downloads_url", "/downloads"), ("events_url", "/events"),
        ("forks_url", "/forks"), ("git_commits_url", "/git/commits{/sha}"), ("git_refs_url", "/git/refs{/sha}"),
        ("git_tags_url", "/git/tags{/sha}"), ("hooks_url", "/hooks"), ("issue_comment_url", "/issues/comments{/number}"),
        ("issue_events_url", "/issues/events{/number}"), ("issues_url", "/issues{/number}"), ("keys_url", "/keys{/key_id}"),
        ("labels_url", "/labels{/name}"), ("languages_url", "/languages"), ("merges_url", "/merges"),
        ("milestones_url", "/milestones{/number}"), ("notifications_url", "/notifications{?since,all,participating}"),
        ("pulls_url", "/pulls{/number}"), ("releases_url", "/releases{/id}"), ("stargazers_url", "/stargazers"),
        ("statuses_url", "/statuses/{sha}"), ("subscribers_url", "/subscribers"), ("subscription_url", "/subscription"),
        ("tags_url", "/tags"), ("teams_url", "/teams"), ("trees_url", "/git/trees{/sha}"),
    ]

    /// GitHub's legacy node ids are base64 of "type:name+id" (e.g. `MDQ6VXNlcjE=` for user 1).
    static func nodeID(_ prefix: String, _ id: Int) -> String {
        Data("\(prefix)\(id)".utf8).base64EncodedString()
    }
}
