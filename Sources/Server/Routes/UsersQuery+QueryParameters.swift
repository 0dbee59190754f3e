// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import HTTP

extension UsersQuery {
    /// The `/users` and `/users/stream` parameters, read through the shared query-parameter parser;
    /// absent ones take `UsersQuery()`'s defaults.
    init(_ parameters: QueryParameters) throws(InvalidQueryParameter) {
        let defaults = UsersQuery()
        self.init(
            since: try parameters.integer("since", in: 0...Int(Int32.max), default: defaults.since),
            limit: try parameters.integer("limit", in: Self.limits, default: defaults.limit),
            avatars: try parameters.choice("avatars", default: defaults.avatars),
            concurrency: try parameters.integer("concurrency", in: Self.concurrencies, default: defaults.concurrency),
            onAvatarError: try parameters.choice("onAvatarError", default: defaults.onAvatarError),
            embed: try parameters.choice("embed", default: defaults.embed),
            profile: try parameters.choice("profile", default: Flag(defaults.profile)).isOn
        )
    }
}

/// A boolean query parameter, spelled `true` or `false`.
private enum Flag: String, CaseIterable {
    case on = "true", off = "false"

    init(_ value: Bool) { self = value ? .on : .off }
    var isOn: Bool { self == .on }
}
