// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Which upstream call of a pipeline failed: names the stage in traces and the subject in
/// problem details ("the avatar of ada1", not "the user list").
public enum UpstreamStage: Sendable, Equatable, CustomStringConvertible {
    case users
    case user(String)
    case repos(String)
    case avatar(String)

    /// The stage's name in pipeline events.
    public var name: String {
        switch self {
        case .users: "users"
        case .user: "user"
        case .repos: "repos"
        case .avatar: "avatar"
        }
    }

    public var description: String {
        switch self {
        case .users: "the user list"
        case .user(let login): "user \(login)"
        case .repos(let login): "the repositories of \(login)"
        case .avatar(let login): "the avatar of \(login)"
        }
    }

    /// True where a 404 means the requested user does not exist.
    public var isAboutTheUser: Bool {
        switch self {
        case .user, .repos: true
        case .users, .avatar: false
        }
    }
}
