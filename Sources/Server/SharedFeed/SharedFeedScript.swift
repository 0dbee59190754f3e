/// The Lua script every replica publishes through. Running INCR and XADD as one
/// script makes numbering and appending atomic, so the stream's ids are exactly
/// 1, 2, 3, … (`n-0`) and map one-to-one to SSE ids on every replica.
///
/// Publishing is idempotent: each replica process numbers its events (a random
/// token per process, then 1, 2, 3, …) and the script skips a number it has
/// already appended. A batch whose reply was lost (Redis stopped between running
/// it and answering) is sent again after the timeout without duplicating events.
///
/// A clock tick passes its replica as lease owner: it is appended only while that
/// replica holds (or can take) the clock lease, so ticks come from one replica.
enum SharedFeedScript {
    /// KEYS: sequence, stream, clock lease, published (hash: process token → last number).
    /// ARGV: retention, event, data, lease owner ('' = none), lease ms, process token, number, pipeline.
    /// Returns the new id; 0 when a tick lost the lease to another replica; -1 for a repeat.
    static let publish = """
        local last = tonumber(redis.call('HGET', KEYS[4], ARGV[6]) or '0')
        if tonumber(ARGV[7]) <= last then return -1 end
        redis.call('HSET', KEYS[4], ARGV[6], ARGV[7])
        if ARGV[4] ~= '' then
          local holder = redis.call('GET', KEYS[3])
          if holder and holder ~= ARGV[4] then return 0 end
          redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[5])
        end
        local n = redis.call('INCR', KEYS[1])
        redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[1], n .. '-0', 'e', ARGV[2], 'p', ARGV[8], 'd', ARGV[3])
        return n
        """

    static func command(keys: SharedFeedKeys, retention: Int, entry: SharedFeedPublisher.Entry, process: String, number: Int) -> [String] {
        [
            "EVAL", publish, "4", keys.sequence, keys.stream, keys.clockLease, keys.published,
            String(retention), entry.event, entry.data, entry.leaseOwner, String(entry.leaseMilliseconds), process, String(number), entry.pipeline,
        ]
    }
}
