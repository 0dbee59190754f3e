// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What `--auth-protect` can put behind a token: the event feed, the metrics, the user API.
enum ProtectedArea: String, Sendable, CaseIterable, Hashable {
    case events, metrics, users

    /// The area's bit in `AccessControl`'s mask: asked on every request of a protected route,
    /// with no hashing of the name, as a `Set` look-up did (the figure: Benchmarks/README.md).
    var bit: UInt8 {
        switch self {
        case .events: 1
        case .metrics: 2
        case .users: 4
        }
    }

    /// Parses `events,metrics`, `all` or `none`.
    static func parse(_ text: String) -> Set<ProtectedArea>? {
        var areas = Set<ProtectedArea>()
        for name in text.split(separator: ",").map({ $0.trimmingWhitespace().lowercased() }) {
            switch name {
            case "all": areas.formUnion(allCases)
            case "none": continue
            default:
                guard let area = ProtectedArea(rawValue: name) else { return nil }
                areas.insert(area)
            }
        }
        return areas
    }
}
