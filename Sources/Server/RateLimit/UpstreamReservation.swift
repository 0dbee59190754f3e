// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

/// What one admitted request holds of its client's upstream budget: `estimate` units, taken at
/// admission. Units spent beyond it are charged as they land; what it did not spend is given
/// back once, when the request is settled: when its answer is complete (`settle`), else when the
/// last reference goes (a streamed answer's work ends with its stream, and so do the
/// references to the `UpstreamUsage` that holds this).
///
/// The bound this keeps: a client's admitted requests together spend at most its burst, plus
/// what they spend beyond their estimates (an upstream retry, an avatar redirect), except that
/// one request estimated above the whole burst may start on a whole budget.
final class UpstreamReservation: Sendable {
    private let budget: UpstreamBudget
    let key: String
    let estimate: Int
    /// The debt in seconds once the estimate was taken.
    private let level: Double
    /// Whether the units were taken in Redis (then they are given back there too).
    private let shared: Bool
    private let state = Locked((spent: 0, settled: false))

    init(_ budget: UpstreamBudget, key: String, estimate: Int, level: Double, shared: Bool) {
        self.budget = budget
        self.key = key
        self.estimate = estimate
        self.level = level
        self.shared = shared
    }

    /// One unit spent upstream: charged only once the estimate is used up (or settled).
    func spend() {
        let beyond = state.withLock { state in
            state.spent += 1
            return state.settled || state.spent > estimate
        }
        if beyond { budget.charge(key, cost: 1) }
    }

    /// Gives back what was reserved and not spent (once), and answers the decision as it now
    /// stands: the debt after admission, moved by what was spent beyond or short of the estimate.
    @discardableResult
    func settle() -> RateDecision {
        let spent = giveBackUnused()
        let policy = budget.policy
        return RateDecision(allowedAfter: max(0, level + Double(spent - estimate) * policy.interval), policy: policy)
    }

    /// Settles (once): what was not spent goes back; the units spent so far.
    @discardableResult
    private func giveBackUnused() -> Int {
        let (unused, spent) = state.withLock { state -> (Int, Int) in
            defer { state.settled = true }
            return (state.settled ? 0 : max(0, estimate - state.spent), state.spent)
        }
        if unused > 0 { budget.giveBack(key, units: unused, shared: shared) }
        return spent
    }

    deinit {
        giveBackUnused()
    }
}
