/// The Lua script every replica publishes through. Running INCR and XADD as one
/// script makes numbering and appending atomic, so the stream's ids are exactly
/// 1, 2, 3, … (`n-0`) and map one-to-one to SSE ids on every replica.
///
/// A clock tick passes its replica as lease owner: it is appended only while that
/// replica holds (or can take) the clock lease, so ticks come from one replica.
enum SharedFeedScript {
    /// KEYS: sequence, stream, clock lease. ARGV: retention, event, data, lease owner ('' = none), lease ms.
    /// Returns the new id, or 0 when a tick lost the lease to another replica.
    static let publish = """
        if ARGV[4] ~= '' then
          local holder = redis.call('GET', KEYS[3])
          if holder and holder ~= ARGV[4] then return 0 end
          redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[5])
        end
        local n = redis.call('INCR', KEYS[1])
        redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[1], n .. '-0', 'e', ARGV[2], 'd', ARGV[3])
        return n
        """

    static func command(keys: SharedFeedKeys, retention: Int, event: String, data: String, leaseOwner: String = "", leaseMilliseconds: Int = 0) -> [String] {
        ["EVAL", publish, "3", keys.sequence, keys.stream, keys.clockLease, String(retention), event, data, leaseOwner, String(leaseMilliseconds)]
    }
}
