#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// URLs parsed from strings, each distinct string parsed once per thread stripe and kept
/// (up to `capacity` a stripe, then that stripe starts over).
///
/// Why: `/users` parses every user's `avatar_url`, and Foundation's `URL(string:)` (RFC 3986
/// parsing and validation) cost about 3,600 instructions an avatar (callgrind, 2.5 % of a
/// request); the same users' avatars come back request after request, and a lookup is a hash
/// of the string. Kept per stripe of threads (`ThreadStripes`), so event loops never wait for
/// each other's lookups.
final class URLMemo: Sendable {
    private let capacity: Int
    private let stripes = ThreadStripes { [String: URL]() }

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// `URL(string: string)`, kept when it parses.
    func url(_ string: String) -> URL? {
        let stripe = stripes.current
        if let kept = stripe.withLock({ $0[string] }) { return kept }
        guard let url = URL(string: string) else { return nil }
        stripe.withLock { urls in
            if urls.count >= capacity { urls.removeAll(keepingCapacity: true) }
            urls[string] = url
        }
        return url
    }
}
