// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import HTTP

/// What a user route is expected to cost upstream: reserved from the client's budget before it
/// starts, then reconciled with what it really cost (`UpstreamReservation`). An estimate errs
/// only by what the work cannot know beforehand: cached answers and joined requests (free, so
/// given back), upstream retries and redirects (charged as they land).
enum UpstreamEstimate {
    /// `/users`, `/users/stream`: the page, and per user its avatar (and its profile with
    /// `profile=true`). A query the route will refuse costs nothing.
    @Sendable static func users(_ request: Request) -> Int {
        guard let query = try? UsersQuery(request.queryParameters) else { return 0 }
        return 1 + query.limit * (query.profile ? 2 : 1)
    }

    /// `/users/{login}`: the user and a page of their repositories.
    @Sendable static func profile(_: Request) -> Int { 2 }

    /// `/users/{login}/avatar`: the user, then the image.
    @Sendable static func avatar(_: Request) -> Int { 2 }
}
