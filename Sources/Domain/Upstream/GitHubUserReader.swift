// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import StreamServiceJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads GitHub user objects (`simple-user` list items, `public-user`) straight from a
/// body's bytes: the fields `GitHubUser` keeps are picked out and every other value is
/// skipped without being built.
///
/// Why: `JSONDecoder` first builds a map of the whole document, then decodes through the
/// `Decodable` containers; for a `/users?per_page=30` page (about 20 fields a user) that was
/// ten times the reading here (the figure: Benchmarks/README.md).
///
/// Only the plain shapes are read: a value it does not expect (a number with a fraction or
/// exponent for `id`, a wrong type, a repeated field, a malformed escape, anything after the
/// document) makes it return nil, and the caller then decodes with `JSONDecoder`, whose
/// answer or error stands. So this reader can be faster, never different.
enum GitHubUserReader {
    static func list(_ body: [UInt8]) -> [GitHubUser]? {
        body.withUnsafeBufferPointer { bytes in
            var reader = JSONReader(bytes: bytes)
            guard let users = reader.userList(), reader.atEnd() else { return nil }
            return users
        }
    }

    static func user(_ body: [UInt8]) -> GitHubUser? {
        body.withUnsafeBufferPointer { bytes in
            var reader = JSONReader(bytes: bytes)
            guard let user = reader.user(), reader.atEnd() else { return nil }
            return user
        }
    }

    /// The fields `GitHubUser` keeps, by their JSON names.
    fileprivate enum Field {
        case login, id, avatarUrl, type, name, company, blog, location, bio, publicRepos, followers, following, createdAt, other

        /// The field a key's bytes name: the length picks the one to three names to compare. A page
        /// item has about 19 keys, 16 of them kept by no field; comparing each key with all 13 names
        /// from a table compared most keys many times over (the figure: Benchmarks/README.md).
        init(_ key: UnsafeBufferPointer<UInt8>) {
            func named(_ name: StaticString) -> Bool { memcmp(name.utf8Start, key.baseAddress!, key.count) == 0 }
            switch key.count {
            case 2: self = named("id") ? .id : .other
            case 3: self = named("bio") ? .bio : .other
            case 4: self = named("type") ? .type : named("name") ? .name : named("blog") ? .blog : .other
            case 5: self = named("login") ? .login : .other
            case 7: self = named("company") ? .company : .other
            case 8: self = named("location") ? .location : .other
            case 9: self = named("followers") ? .followers : named("following") ? .following : .other
            case 10: self = named("avatar_url") ? .avatarUrl : named("created_at") ? .createdAt : .other
            case 12: self = named("public_repos") ? .publicRepos : .other
            default: self = .other
            }
        }
    }
}

/// The user objects, read with `JSONReader`.
private extension JSONReader {
    mutating func userList() -> [GitHubUser]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var users: [GitHubUser] = []
        if take(UInt8(ascii: "]")) { return users }
        repeat {
            guard let user = user() else { return nil }
            users.append(user)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? users : nil
    }

    mutating func user() -> GitHubUser? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var login: String?, id: Int?, avatarUrl: String?
        var type: String??, name: String??, company: String??, blog: String??, location: String??, bio: String??
        var publicRepos: Int??, followers: Int??, following: Int??, createdAt: String??
        if !take(UInt8(ascii: "}")) {
            repeat {
                guard let key = key().map(GitHubUserReader.Field.init), take(UInt8(ascii: ":")) else { return nil }
                switch key {
                case .login: guard login == nil, let value = string() else { return nil }; login = value
                case .id: guard id == nil, let value = integer() else { return nil }; id = value
                case .avatarUrl: guard avatarUrl == nil, let value = string() else { return nil }; avatarUrl = value
                case .type: guard type == nil, let value = optionalString() else { return nil }; type = value
                case .name: guard name == nil, let value = optionalString() else { return nil }; name = value
                case .company: guard company == nil, let value = optionalString() else { return nil }; company = value
                case .blog: guard blog == nil, let value = optionalString() else { return nil }; blog = value
                case .location: guard location == nil, let value = optionalString() else { return nil }; location = value
                case .bio: guard bio == nil, let value = optionalString() else { return nil }; bio = value
                case .publicRepos: guard publicRepos == nil, let value = optionalInteger() else { return nil }; publicRepos = value
                case .followers: guard followers == nil, let value = optionalInteger() else { return nil }; followers = value
                case .following: guard following == nil, let value = optionalInteger() else { return nil }; following = value
                case .createdAt: guard createdAt == nil, let value = optionalString() else { return nil }; createdAt = value
                case .other: guard skipTopValue() else { return nil }
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        guard let login, let id, let avatarUrl else { return nil }
        return GitHubUser(
            login: login, id: id, avatarUrl: avatarUrl, type: type ?? nil, name: name ?? nil, company: company ?? nil,
            blog: blog ?? nil, location: location ?? nil, bio: bio ?? nil, publicRepos: publicRepos ?? nil,
            followers: followers ?? nil, following: following ?? nil, createdAt: createdAt ?? nil)
    }
}
