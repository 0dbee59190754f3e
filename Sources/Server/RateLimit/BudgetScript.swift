// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Redis

/// The one atomic step of a shared budget (GCRA, as `LocalRateLimiter` does it in-process): read
/// the client's paid-off time (TAT, in ms by Redis' own clock, so replicas' clocks need not
/// agree), add `cost` intervals (a negative cost gives units back, never below a whole budget),
/// and answer `{taken, debt in ms}`. A reservation names the most debt it may start on
/// (ARGV[3]) and takes nothing when the debt is above it, so concurrent reservations of one
/// client cannot all pass one check. The key expires once the debt is paid, so idle clients
/// cost nothing.
enum BudgetScript {
    static let script = RedisScript("""
        local time = redis.call('TIME')
        local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
        local tat = tonumber(redis.call('GET', KEYS[1])) or now
        if tat < now then tat = now end
        if ARGV[3] and tat - now > tonumber(ARGV[3]) then
          return {0, math.floor(tat - now)}
        end
        local cost = tonumber(ARGV[2])
        if cost ~= 0 then
          tat = math.max(tat + cost * tonumber(ARGV[1]), now)
          redis.call('SET', KEYS[1], string.format('%d', tat), 'PX', math.ceil(tat - now) + 1000)
        end
        return {1, math.floor(tat - now)}
        """)

    static let keyPrefix = "streamservice:budget:"

    /// The call for `key`: `cost` units of `policy`, taken only when the debt is at most
    /// `fitting` seconds (a reservation; nil charges regardless); `EVAL` when Redis may not have the script.
    static func call(key: String, cost: Int, fitting: Double? = nil, policy: RatePolicy, loading: Bool) -> [String] {
        var arguments = [String(policy.interval * 1000), String(cost)]
        if let fitting { arguments.append(String(fitting * 1000 + 0.001)) }
        let keys = [keyPrefix + key]
        return loading ? script.eval(keys: keys, arguments: arguments) : script.evalSHA(keys: keys, arguments: arguments)
    }

    /// `{taken, debt in ms}` read: whether the units were taken, and the debt in seconds after.
    static func answer(_ value: RESPValue) -> (taken: Bool, level: Double)? {
        guard let parts = value.array, parts.count == 2, let taken = parts[0].int, let level = parts[1].int else { return nil }
        return (taken == 1, Double(level) / 1000)
    }
}
