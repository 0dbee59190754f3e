// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// Debts by client key in one open-addressed array probed linearly, kept within a maximum by
/// forgetting a few at a time: the request cap's table by address (`AddressDebts`, looked up on
/// every request) and the upstream budgets' by key.
///
/// Why not a `Dictionary`: every request of a capped route looks its client up, and hashing an
/// address with the standard library's SipHash (seed, combine, finalise) plus the generic probe
/// costs several times a multiply-and-shift mix and a probe of plain slots (Benchmarks/README.md,
/// issue 28). The mix is keyed by a random seed per table, so a client choosing its addresses
/// cannot aim them at one run of slots without knowing it. `DictionaryDebts` is the plain twin
/// (`AddressDebtsTests`).
///
/// Bounded work: a client already in the table costs one probe, as before. A new one moves the
/// sweep on by `sweepStep` slots (forgetting the paid-off ones it passes: every slot is seen once
/// per `slots / sweepStep` insertions, so a paid-off client lingers at most that long, on average
/// a sixteenth of the slots' worth of insertions) and, when the table is full, looks at the next
/// `evictionWindow` clients for one to forget: the first paid-off, else the least indebted
/// within its limit. Removal shifts the run back (no tombstones), so probes stay short. A full
/// filter-and-rebuild per insertion near the bound made 1,666 requests a second cost 50–60 % of
/// a core (issue 34); clearing the table when nothing could be dropped freed every client in debt.
struct BoundedDebts<Key: DebtKey>: DebtTable, Sendable {
    private struct Slot: Sendable {
        var key: Key
        var debt: Double
        var used: Bool
    }

    private var slots: [Slot]
    private(set) var count = 0
    let maximumCount: Int
    private let seed: UInt64
    /// Where the sweep (and the search for a client to forget) goes on from.
    private var cursor = 0
    /// 64 slots at first (fewer for a smaller table); doubled whenever more than half are used,
    /// up to `slotCount(for: maximumCount)`.
    static var initialCapacity: Int { 64 }
    static var sweepStep: Int { 8 }
    static var evictionWindow: Int { 16 }

    init(maximumCount: Int) {
        self.init(maximumCount: maximumCount, seed: UInt64.random(in: .min ... .max))
    }

    /// A table with a fixed seed (tests that need colliding slots).
    init(maximumCount: Int, seed: UInt64) {
        precondition(maximumCount > 0, "a table must hold at least one client")
        self.maximumCount = maximumCount
        self.seed = seed
        slots = Array(repeating: Self.vacant, count: min(Self.initialCapacity, Self.slotCount(for: maximumCount)))
    }

    /// The slots `maximum` clients take at the half load the table keeps: the array's final size.
    static func slotCount(for maximum: Int) -> Int {
        var slots = 4
        while slots < maximum * 2 { slots *= 2 }
        return slots
    }

    /// Clients held at most: past `maximumCount` only while none may be forgotten, in the spare
    /// room of the array already there (half its slots), never in a bigger one.
    static func ceiling(for maximum: Int) -> Int { slotCount(for: maximum) / 2 }

    private static var vacant: Slot { Slot(key: Key.vacant, debt: 0, used: false) }

    func debt(of key: Key) -> Double? {
        slots.withUnsafeBufferPointer { slots in
            let index = Self.find(key, in: slots, seed: seed)
            return slots[index].used ? slots[index].debt : nil
        }
    }

    mutating func update<Result>(_ key: Key, horizon: DebtHorizon, _ body: (inout Double) -> Result) -> Result? {
        let seed = seed
        let known = slots.withUnsafeMutableBufferPointer { slots -> Result? in
            let index = Self.find(key, in: UnsafeBufferPointer(slots), seed: seed)
            return slots[index].used ? body(&slots[index].debt) : nil
        }
        if let known { return known }
        guard makeRoom(horizon) else { return nil }
        if (count + 1) * 2 > slots.count { resize(to: slots.count * 2) }
        return slots.withUnsafeMutableBufferPointer { slots in
            let index = Self.find(key, in: UnsafeBufferPointer(slots), seed: seed)
            slots[index] = Slot(key: key, debt: horizon.now, used: true)
            count += 1
            return body(&slots[index].debt)
        }
    }

    /// Room for one more client: the sweep's step, then, when still full, one client forgotten,
    /// else the array's spare room. Held just under the bound, the paid-off clients the sweep has
    /// not reached yet are what the spare room absorbs.
    private mutating func makeRoom(_ horizon: DebtHorizon) -> Bool {
        let mask = slots.count - 1
        for _ in 0..<Self.sweepStep {
            // A slot that a removal refills is looked at on the next pass.
            if slots[cursor].used, horizon.isPaidOff(slots[cursor].debt) { remove(at: cursor) }
            cursor = (cursor + 1) & mask
        }
        return count < maximumCount || forgetOne(horizon) || (count + 1) * 2 <= slots.count
    }

    /// Forgets the first paid-off client of the next `evictionWindow` clients, else the least
    /// indebted of them within its limit; false when all there are over their limits (the
    /// window has moved on, so the next attempt looks at others).
    private mutating func forgetOne(_ horizon: DebtHorizon) -> Bool {
        let mask = slots.count - 1
        var least: Int?, seen = 0, visited = 0
        while seen < Self.evictionWindow, visited < slots.count {
            let slot = slots[cursor]
            if slot.used {
                if horizon.isPaidOff(slot.debt) {
                    least = cursor
                    break
                }
                if horizon.isWithinLimit(slot.debt), least.map({ slot.debt < slots[$0].debt }) ?? true { least = cursor }
                seen += 1
            }
            cursor = (cursor + 1) & mask
            visited += 1
        }
        guard let least else { return false }
        remove(at: least)
        return true
    }

    /// Empties `index` and shifts back each later entry of its run that may move closer to its home slot.
    private mutating func remove(at index: Int) {
        let mask = slots.count - 1
        var hole = index, next = index
        while true {
            next = (next + 1) & mask
            guard slots[next].used else { break }
            let home = Int(truncatingIfNeeded: Key.mix(slots[next].key, seed: seed)) & mask
            // It may fill the hole when the hole lies on its probe path (from home to where it is).
            if (next &- home) & mask >= (next &- hole) & mask {
                slots[hole] = slots[next]
                hole = next
            }
        }
        slots[hole] = Self.vacant
        count -= 1
    }

    private mutating func resize(to capacity: Int) {
        let kept = slots.filter(\.used)
        slots = Array(repeating: Self.vacant, count: capacity)
        cursor = 0
        let seed = seed
        slots.withUnsafeMutableBufferPointer { slots in
            for slot in kept { slots[Self.find(slot.key, in: UnsafeBufferPointer(slots), seed: seed)] = slot }
        }
    }

    /// The slot holding `key`, or the empty slot where it would go (the table is never full).
    private static func find(_ key: Key, in slots: UnsafeBufferPointer<Slot>, seed: UInt64) -> Int {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: Key.mix(key, seed: seed)) & mask
        while slots[index].used, !Key.same(slots[index].key, key) {
            index = (index + 1) & mask
        }
        return index
    }
}

/// The request cap's table: by client address (an IPv6 client by its prefix, `ClientAddressKey`).
typealias AddressDebts = BoundedDebts<IPAddress>

/// What `BoundedDebts` keys by: a seeded mix of the key's bits, and equality that inlines.
protocol DebtKey: Hashable, Sendable {
    /// What an empty slot holds (never compared: a slot says whether it is used).
    static var vacant: Self { get }
    static func mix(_ key: Self, seed: UInt64) -> UInt64
    static func same(_ a: Self, _ b: Self) -> Bool
}

extension IPAddress: DebtKey {
    static var vacant: IPAddress { IPAddress(high: 0, low: 0) }

    /// The halves compared here: `IPAddress`'s `==` lives in another module and was a call per probe.
    @inline(__always)
    static func same(_ a: IPAddress, _ b: IPAddress) -> Bool { a.low == b.low && a.high == b.high }

    /// Both halves of the address through a seeded multiply-xorshift (the finaliser of
    /// SplitMix64): every input bit reaches the low bits the mask keeps.
    @inline(__always)
    static func mix(_ key: IPAddress, seed: UInt64) -> UInt64 {
        var x = (key.low ^ seed) &+ key.high &* 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }
}

/// The upstream budgets' keys (`sub:…`, `addr:…`): off the per-request path, so the standard hasher.
extension String: DebtKey {
    static var vacant: String { "" }
    static func same(_ a: String, _ b: String) -> Bool { a == b }

    static func mix(_ key: String, seed: UInt64) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(seed)
        hasher.combine(key)
        return UInt64(truncatingIfNeeded: hasher.finalize())
    }
}
