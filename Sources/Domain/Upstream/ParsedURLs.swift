// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// `URL(string:)` of the strings parsed lately, kept: a page of users names the same avatar
/// URLs request after request, and Foundation's parse (RFC 3986, about 3,700 instructions an
/// avatar, 30 a `/users` page) cost several times a lookup here (the figure:
/// Benchmarks/README.md). At `capacity` the memo starts over rather than keeping an order of use.
final class ParsedURLs: Sendable {
    private let parsed = Mutex<[String: URL]>([:])
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// What `URL(string: string)` answers; a string it refuses is not kept.
    func url(_ string: String) -> URL? {
        if let known = parsed.withLock({ $0[string] }) { return known }
        guard let url = URL(string: string) else { return nil }
        parsed.withLock { parsed in
            if parsed.count >= capacity { parsed.removeAll(keepingCapacity: true) }
            parsed[string] = url
        }
        return url
    }

    /// The strings kept now.
    var count: Int { parsed.withLock { $0.count } }
}
