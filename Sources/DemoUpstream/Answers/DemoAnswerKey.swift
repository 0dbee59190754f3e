// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What a stored answer's bytes are a function of: the resource asked for and the origins
/// its URLs point at (the `Host` the client used, the avatar origin). The directory and the
/// seed are fixed for a `DemoUpstream`, so they are not part of the key.
struct DemoAnswerKey: Hashable, Sendable {
    enum Resource: Hashable, Sendable {
        /// `since` below 0 lists from the first user, as 0 does.
        case users(since: Int, perPage: Int)
        case user(login: String)
        case repos(login: String, perPage: Int, page: Int)
    }

    let resource: Resource
    let shapes: GitHubShapes

    /// The key's own share of a memo's budget: its client-chosen strings and a fixed overhead.
    var bytes: Int {
        let login = switch resource {
        case .users: 0
        case .user(let login), .repos(let login, _, _): login.utf8.count
        }
        return 64 + login + shapes.api.utf8.count + shapes.avatars.utf8.count
    }
}
