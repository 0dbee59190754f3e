import NetCore

/// The request cap's debts by client address, in one open-addressed array probed linearly.
///
/// Why not a `Dictionary`: every request of a capped route looks its client up, and hashing an
/// address with the standard library's SipHash (seed, combine, finalise) plus the generic probe
/// was about 300 instructions a request; a multiply-and-shift mix and a probe of plain slots
/// are a small fraction of that (Benchmarks/README.md, issue 28). The mix is keyed by a random
/// seed per table, so a client choosing its addresses (an IPv6 prefix holds many) cannot aim
/// them at one run of slots without knowing it. `[IPAddress: Double]` is the plain twin
/// (`AddressDebtsTests` holds them equal under the same limiter).
struct AddressDebts: DebtTable {
    private struct Slot {
        var address: IPAddress
        var debt: Double
        var used: Bool
    }

    private var slots: [Slot]
    private(set) var count = 0
    private let seed: UInt64
    /// 64 slots at first; doubled whenever more than half are used.
    static let initialCapacity = 64

    init() {
        self.init(seed: UInt64.random(in: .min ... .max))
    }

    /// A table with a fixed seed (tests that need colliding slots).
    init(seed: UInt64) {
        self.seed = seed
        slots = Array(repeating: Slot(address: IPAddress(high: 0, low: 0), debt: 0, used: false), count: Self.initialCapacity)
    }

    func debt(of key: IPAddress) -> Double? {
        slots.withUnsafeBufferPointer { slots in
            let index = Self.find(key, in: slots, seed: seed)
            return slots[index].used ? slots[index].debt : nil
        }
    }

    mutating func update<Result>(_ key: IPAddress, initial: Double, _ body: (inout Double) -> Result) -> Result {
        if (count + 1) * 2 > slots.count { resize(to: slots.count * 2) }
        let seed = seed
        return slots.withUnsafeMutableBufferPointer { slots in
            let index = Self.find(key, in: UnsafeBufferPointer(slots), seed: seed)
            if !slots[index].used {
                slots[index] = Slot(address: key, debt: initial, used: true)
                count += 1
            }
            return body(&slots[index].debt)
        }
    }

    mutating func forget(where shouldForget: (Double) -> Bool) {
        let kept = slots.filter { $0.used && !shouldForget($0.debt) }
        var capacity = Self.initialCapacity
        while kept.count * 2 > capacity { capacity *= 2 }
        rebuild(kept, capacity: capacity)
    }

    private mutating func resize(to capacity: Int) {
        rebuild(slots.filter(\.used), capacity: capacity)
    }

    private mutating func rebuild(_ kept: [Slot], capacity: Int) {
        slots = Array(repeating: Slot(address: IPAddress(high: 0, low: 0), debt: 0, used: false), count: capacity)
        count = 0
        for slot in kept { update(slot.address, initial: slot.debt) { _ in } }
    }

    /// The slot holding `key`, or the empty slot where it would go (the table is never full).
    private static func find(_ key: IPAddress, in slots: UnsafeBufferPointer<Slot>, seed: UInt64) -> Int {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: mix(key, seed: seed)) & mask
        // The halves compared here: `IPAddress`'s `==` lives in another module and was a call per probe.
        while slots[index].used, slots[index].address.low != key.low || slots[index].address.high != key.high {
            index = (index + 1) & mask
        }
        return index
    }

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
