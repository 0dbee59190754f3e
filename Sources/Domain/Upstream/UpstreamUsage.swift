// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// What one client request spends upstream, for per-client budgets: one unit for every exchange
/// that reaches the upstream and is not answered `304` (GitHub does not count a 304 against the
/// rate limit). A cached answer served without an exchange costs nothing, and neither does a GET
/// that joined an identical one in flight (that one's request paid).
///
/// Each unit is reported to `onCharge` as its answer lands, so a budget shared by many requests
/// of one client is debited while they run, not only once they end.
public final class UpstreamUsage: Sendable, Equatable {
    private let spent = Atomic<Int>(0)
    private let onCharge: @Sendable (Int) -> Void

    public init(onCharge: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.onCharge = onCharge
    }

    /// Exchanges charged so far.
    public var requests: Int { spent.load(ordering: .relaxed) }

    func charge() {
        spent.add(1, ordering: .relaxed)
        onCharge(1)
    }

    /// The same meter: requests compare by identity.
    public static func == (lhs: UpstreamUsage, rhs: UpstreamUsage) -> Bool { lhs === rhs }
}
