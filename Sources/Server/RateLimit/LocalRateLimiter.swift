#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StreamServiceConcurrency

/// Per-client budgets in this process, by the generic cell rate algorithm (GCRA): each client
/// has one number, the time its debt is paid off (TAT); a unit adds one interval to it, time
/// pays it down. A client may go on while one more unit fits within the burst's capacity, and
/// a cost charged after the fact may run it into debt, which then refuses it for that long.
final class LocalRateLimiter<Key: Hashable & Sendable>: Sendable {
    let policy: RatePolicy
    private let clock: @Sendable () -> Double
    private let debts = Locked<[Key: Double]>([:])
    /// Clients remembered at most; beyond it the paid-off ones are forgotten first (a client
    /// with no debt is the same as one never seen). 100,000 entries are a few MB.
    static var maximumClients: Int { 100_000 }

    init(policy: RatePolicy, clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.policy = policy
        self.clock = clock
    }

    /// Whether `key` may start work now; charges nothing.
    func admit(_ key: Key) -> RateDecision {
        let now = clock()
        let tat = debts.withLock { $0[key] } ?? now
        return RateDecision(level: tat - now, policy: policy)
    }

    /// Adds `cost` units to `key`'s debt, allowed or not (they were spent already).
    func charge(_ key: Key, cost: Int) {
        let now = clock()
        debts.withLock { debts in
            debts[key] = max(debts[key] ?? now, now) + Double(cost) * policy.interval
            Self.bound(&debts, now: now)
        }
    }

    /// Takes one unit when it fits (a request cap): the decision, charged only when allowed.
    func take(_ key: Key) -> RateDecision {
        let now = clock()
        return debts.withLock { debts in
            let tat = max(debts[key] ?? now, now)
            let before = RateDecision(level: tat - now, policy: policy)
            guard before.allowed else { return before }
            debts[key] = tat + policy.interval
            Self.bound(&debts, now: now)
            var after = RateDecision(level: tat + policy.interval - now, policy: policy)
            after.allowed = true
            after.retryAfterSeconds = 0
            return after
        }
    }

    private static func bound(_ debts: inout [Key: Double], now: Double) {
        guard debts.count > maximumClients else { return }
        debts = debts.filter { $0.value > now }
        if debts.count > maximumClients { debts.removeAll() }
    }
}
