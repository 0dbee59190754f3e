/// Where `LocalRateLimiter` keeps each client's debt (its GCRA theoretical arrival time, in
/// seconds): a `Dictionary` for any key, or `AddressDebts` for client addresses, the request
/// cap's key on every request.
protocol DebtTable {
    associatedtype Key: Hashable
    init()
    var count: Int { get }
    /// `key`'s debt; nil for a client never seen (or forgotten).
    func debt(of key: Key) -> Double?
    /// Runs `body` on `key`'s debt, which starts at `initial` for a client not in the table.
    mutating func update<Result>(_ key: Key, initial: Double, _ body: (inout Double) -> Result) -> Result
    /// Forgets the clients whose debt `shouldForget` picks.
    mutating func forget(where shouldForget: (Double) -> Bool)
}

extension Dictionary: DebtTable where Value == Double {
    func debt(of key: Key) -> Double? { self[key] }

    mutating func update<Result>(_ key: Key, initial: Double, _ body: (inout Double) -> Result) -> Result {
        body(&self[key, default: initial])
    }

    mutating func forget(where shouldForget: (Double) -> Bool) {
        self = filter { !shouldForget($0.value) }
    }
}
