// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Where `LocalRateLimiter` keeps each client's debt (its GCRA theoretical arrival time, in
/// seconds), at most `maximumCount` clients: `BoundedDebts` (open addressing, swept a few slots
/// at a time), or a `Dictionary`, its plain twin in tests.
///
/// A full table makes room by forgetting, never by starting over: a client forgotten is a client
/// with a whole budget again, so only one that owes nothing, or else the least indebted of those
/// still within their limit, may go. One over its limit stays until it has paid. While none may
/// go, newcomers are held past `maximumCount` up to `BoundedDebts.ceiling(for:)` (the spare half
/// of the array a full table already has), and beyond it refused (`update` answers nil).
protocol DebtTable {
    associatedtype Key: Hashable
    init(maximumCount: Int)
    var count: Int { get }
    /// `key`'s debt; nil for a client never seen (or forgotten).
    func debt(of key: Key) -> Double?
    /// Runs `body` on `key`'s debt; a client not in the table starts at `horizon.now` when there
    /// is room for it. nil: the table is full of clients that may not be forgotten.
    mutating func update<Result>(_ key: Key, horizon: DebtHorizon, _ body: (inout Double) -> Result) -> Result?
}

/// Which debts may be forgotten at one moment: paid off (at or before `now`) any time; within
/// the limit (at or before `admissible`: one more unit would be allowed) when room is needed.
struct DebtHorizon {
    let now: Double
    let admissible: Double

    func isPaidOff(_ debt: Double) -> Bool { debt <= now }
    func isWithinLimit(_ debt: Double) -> Bool { debt <= admissible }
}

/// The plain twin: the same rules by whole-table scans (the least indebted of all, exactly).
struct DictionaryDebts<Key: Hashable & Sendable>: DebtTable, Sendable {
    private var debts: [Key: Double] = [:]
    let maximumCount: Int

    init(maximumCount: Int) {
        self.maximumCount = maximumCount
    }

    var count: Int { debts.count }

    func debt(of key: Key) -> Double? { debts[key] }

    mutating func update<Result>(_ key: Key, horizon: DebtHorizon, _ body: (inout Double) -> Result) -> Result? {
        if debts[key] == nil {
            debts = debts.filter { !horizon.isPaidOff($0.value) }
            if debts.count >= maximumCount {
                if let least = debts.filter({ horizon.isWithinLimit($0.value) }).min(by: { $0.value < $1.value }) {
                    debts[least.key] = nil
                } else if debts.count >= BoundedDebts<String>.ceiling(for: maximumCount) {
                    return nil
                }
            }
        }
        return body(&debts[key, default: horizon.now])
    }
}
