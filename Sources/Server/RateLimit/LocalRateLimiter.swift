// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// Per-client budgets in this process, by the generic cell rate algorithm (GCRA): each client
/// has one number, the time its debt is paid off (TAT); a unit adds one interval to it, time
/// pays it down. A client may go on while its units fit within the burst's capacity, and a cost
/// charged after the fact may run it into debt, which then refuses it for that long.
/// The debts are kept in a bounded `Table` (`DebtTable`): a client over its limit is never
/// forgotten to make room for another.
final class LocalRateLimiter<Table: DebtTable & Sendable>: Sendable {
    typealias Key = Table.Key
    let policy: RatePolicy
    /// nil: `CoarseClock.now`, called directly (a default closure went through two thunks per reading).
    private let clock: (@Sendable () -> Double)?
    private let debts: Locked<Table>
    /// Clients remembered at most by default: 100,000 entries are a few MB.
    static var defaultMaximumClients: Int { 100_000 }

    init(policy: RatePolicy, clock: (@Sendable () -> Double)? = nil, maximumClients: Int = defaultMaximumClients) {
        self.policy = policy
        self.clock = clock
        debts = Locked(Table(maximumCount: maximumClients))
    }

    private func currentTime() -> Double {
        clock?() ?? CoarseClock.now()
    }

    /// What may be forgotten at `now`: a client paid off, or one more unit of whose would be allowed.
    @inline(__always)
    private func horizon(_ now: Double) -> DebtHorizon {
        DebtHorizon(now: now, admissible: now + policy.capacity - policy.interval + 1e-9)
    }

    /// A refusal for a client the table has no room for (full of clients over their limits):
    /// as for one whose burst is spent, back after one interval.
    private var noRoom: RateDecision { RateDecision(level: policy.capacity, policy: policy) }

    /// Adds `cost` units to `key`'s debt, allowed or not (they were spent already); a negative
    /// cost gives units back (a reservation that spent less), never below a whole budget.
    func charge(_ key: Key, cost: Int) {
        let now = currentTime()
        let horizon = horizon(now)
        debts.withLock { debts in
            // Giving back to a client no longer remembered: it owes nothing already.
            guard cost > 0 || debts.debt(of: key) != nil else { return }
            _ = debts.update(key, horizon: horizon) { $0 = max(max($0, now) + Double(cost) * policy.interval, now) }
        }
    }

    /// Takes `cost` units at once when they may start (`RatePolicy.admits(debt:cost:)`): the
    /// decision, with what is left after them when allowed, and the debt in seconds after
    /// (before, when refused); nothing charged when refused.
    func reserve(_ key: Key, cost: Int) -> (decision: RateDecision, level: Double) {
        let now = currentTime()
        let horizon = horizon(now)
        let policy = policy
        let outcome = debts.withLock { debts in
            debts.update(key, horizon: horizon) { tat -> (taken: Bool, level: Double) in
                tat = max(tat, now)
                guard policy.admits(debt: tat - now, cost: cost) else { return (false, tat - now) }
                tat += Double(cost) * policy.interval
                return (true, tat - now)
            }
        }
        guard let outcome else { return (noRoom, policy.capacity) }
        let decision = outcome.taken ? RateDecision(allowedAfter: outcome.level, policy: policy) : RateDecision(level: outcome.level, policy: policy, cost: cost)
        return (decision, outcome.level)
    }

    /// Takes one unit when it fits (a request cap): the decision, charged only when allowed.
    func take(_ key: Key) -> RateDecision {
        let now = currentTime()
        guard let (taken, level) = debts.withLock({ takeUnit(key, now: now, from: &$0) }) else { return noRoom }
        guard taken else { return RateDecision(level: level, policy: policy) }
        return RateDecision(allowedAfter: level + policy.interval, policy: policy)
    }

    /// `take` for a caller that needs the figures only on a refusal (the request cap, on every
    /// request): nil when the unit was taken, else the refusing decision. The figures
    /// (`RateDecision`, twice) were about a third of the cap's cost a request.
    @inline(__always)
    func takeUnlessRefused(_ key: Key) -> RateDecision? {
        let now = currentTime()
        guard let (taken, level) = debts.withLock({ takeUnit(key, now: now, from: &$0) }) else { return noRoom }
        return taken ? nil : RateDecision(level: level, policy: policy)
    }

    /// One unit for `key` at `now` if it fits, in one probe of the table (a look-up and then a
    /// store hashed the address twice): whether it was taken, and the debt in seconds before;
    /// nil when there is no room for a new client.
    private func takeUnit(_ key: Key, now: Double, from debts: inout Table) -> (taken: Bool, level: Double)? {
        debts.update(key, horizon: horizon(now)) { Self.takeUnit(from: &$0, now: now, policy: policy) }
    }

    private static func takeUnit(from tat: inout Double, now: Double, policy: borrowing RatePolicy) -> (taken: Bool, level: Double) {
        // A debt paid off in the past counts from now (an entry made just now is `now` too).
        tat = max(tat, now)
        let level = tat - now
        guard policy.admits(debt: level) else { return (false, level) }
        tat += policy.interval
        return (true, level)
    }
}
