import Redis

/// The one atomic step of a shared budget (GCRA, as `LocalRateLimiter` does it in-process): read
/// the client's paid-off time (TAT, in ms by Redis' own clock, so replicas' clocks need not
/// agree), add `cost` intervals when charging, and answer the debt left in ms. A check is the
/// same call with cost 0. The key expires once the debt is paid, so idle clients cost nothing.
enum BudgetScript {
    static let script = RedisScript("""
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
        local tat = tonumber(redis.call('GET', KEYS[1])) or now
        if tat < now then tat = now end
        local cost = tonumber(ARGV[2])
        if cost > 0 then
          tat = tat + cost * tonumber(ARGV[1])
          redis.call('SET', KEYS[1], string.format('%d', tat), 'PX', math.ceil(tat - now) + 1000)
        end
        return math.floor(tat - now)
        """)

    static let keyPrefix = "streamservice:budget:"

    /// The call for `key`: `cost` units of `policy` (0 checks only); `EVAL` when Redis may not have the script.
    static func call(key: String, cost: Int, policy: RatePolicy, loading: Bool) -> [String] {
        let keys = [keyPrefix + key], arguments = [String(policy.interval * 1000), String(cost)]
        return loading ? script.eval(keys: keys, arguments: arguments) : script.evalSHA(keys: keys, arguments: arguments)
    }
}
