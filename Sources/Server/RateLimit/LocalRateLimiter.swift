import StreamServiceConcurrency

/// Per-client budgets in this process, by the generic cell rate algorithm (GCRA): each client
/// has one number, the time its debt is paid off (TAT); a unit adds one interval to it, time
/// pays it down. A client may go on while one more unit fits within the burst's capacity, and
/// a cost charged after the fact may run it into debt, which then refuses it for that long.
/// The debts are kept in a `Table`: a `Dictionary` by any key, or `AddressDebts` by address.
final class LocalRateLimiter<Table: DebtTable & Sendable>: Sendable {
    typealias Key = Table.Key
    let policy: RatePolicy
    /// nil: `CoarseClock.now`, called directly (a default closure went through two thunks per reading).
    private let clock: (@Sendable () -> Double)?
    private let debts = Locked<Table>(Table())
    /// Clients remembered at most; beyond it the paid-off ones are forgotten first (a client
    /// with no debt is the same as one never seen). 100,000 entries are a few MB.
    static var maximumClients: Int { 100_000 }

    init(policy: RatePolicy, clock: (@Sendable () -> Double)? = nil) {
        self.policy = policy
        self.clock = clock
    }

    private func currentTime() -> Double {
        clock?() ?? CoarseClock.now()
    }

    /// Whether `key` may start work now; charges nothing.
    func admit(_ key: Key) -> RateDecision {
        let now = currentTime()
        let tat = debts.withLock { $0.debt(of: key) } ?? now
        return RateDecision(level: tat - now, policy: policy)
    }

    /// Adds `cost` units to `key`'s debt, allowed or not (they were spent already).
    func charge(_ key: Key, cost: Int) {
        let now = currentTime()
        debts.withLock { debts in
            debts.update(key, initial: now) { $0 = max($0, now) + Double(cost) * policy.interval }
            Self.bound(&debts, now: now)
        }
    }

    /// Takes one unit when it fits (a request cap): the decision, charged only when allowed.
    func take(_ key: Key) -> RateDecision {
        let now = currentTime()
        let (taken, level) = debts.withLock { takeUnit(key, now: now, from: &$0) }
        guard taken else { return RateDecision(level: level, policy: policy) }
        var after = RateDecision(level: level + policy.interval, policy: policy)
        after.allowed = true
        after.retryAfterSeconds = 0
        return after
    }

    /// `take` for a caller that needs the figures only on a refusal (the request cap, on every
    /// request): nil when the unit was taken, else the refusing decision. The figures
    /// (`RateDecision`, twice) were about a third of the cap's cost a request.
    @inline(__always)
    func takeUnlessRefused(_ key: Key) -> RateDecision? {
        let now = currentTime()
        let (taken, level) = debts.withLock { takeUnit(key, now: now, from: &$0) }
        return taken ? nil : RateDecision(level: level, policy: policy)
    }

    /// One unit for `key` at `now` if it fits, in one probe of the table (a look-up and then a
    /// store hashed the address twice): whether it was taken, and the debt in seconds before.
    private func takeUnit(_ key: Key, now: Double, from debts: inout Table) -> (taken: Bool, level: Double) {
        let result = debts.update(key, initial: now) { Self.takeUnit(from: &$0, now: now, policy: policy) }
        Self.bound(&debts, now: now)
        return result
    }

    private static func takeUnit(from tat: inout Double, now: Double, policy: borrowing RatePolicy) -> (taken: Bool, level: Double) {
        // A debt paid off in the past counts from now (an entry made just now is `now` too).
        tat = max(tat, now)
        let level = tat - now
        guard policy.admits(debt: level) else { return (false, level) }
        tat += policy.interval
        return (true, level)
    }

    private static func bound(_ debts: inout Table, now: Double) {
        guard debts.count > maximumClients else { return }
        debts.forget { $0 <= now }
        if debts.count > maximumClients { debts = Table() }
    }
}
