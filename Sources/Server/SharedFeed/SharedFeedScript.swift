import Redis

/// The Lua script every replica publishes through. Running INCR and XADD in one
/// script makes numbering and appending atomic, so the stream's ids are exactly
/// 1, 2, 3, … (`n-0`) and map one-to-one to SSE ids on every replica.
///
/// One call appends a whole batch (up to `SharedFeedPublisher`'s batch size): a call
/// costs Redis a Lua invocation and the process-token lookup, and the replica a reply
/// to parse, so one per event held the publish rate near 17,000 events/s; one per
/// batch leaves INCR and XADD as the per-event work. It is called by `EVALSHA`
/// (`RedisScript`), so the body is not resent with every batch.
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
    /// ARGV: retention, process token, then per event: number, event, data, lease owner
    /// ('' = none), lease ms, pipeline.
    /// Returns per event the new id; 0 when a tick lost the lease to another replica; -1 for a repeat.
    static let publish = RedisScript("""
        local last = tonumber(redis.call('HGET', KEYS[4], ARGV[2]) or '0')
        local top = last
        local results = {}
        for i = 3, #ARGV, 6 do
          local number = tonumber(ARGV[i])
          local result = -1
          if number > top then
            top = number
            result = 0
            local owner = ARGV[i + 3]
            local holder = owner ~= '' and redis.call('GET', KEYS[3])
            if not holder or holder == owner then
              if owner ~= '' then redis.call('SET', KEYS[3], owner, 'PX', ARGV[i + 4]) end
              result = redis.call('INCR', KEYS[1])
              redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[1], result .. '-0', 'e', ARGV[i + 1], 'p', ARGV[i + 5], 'd', ARGV[i + 2])
            end
          end
          results[#results + 1] = result
        end
        if top > last then redis.call('HSET', KEYS[4], ARGV[2], top) end
        return results
        """)

    /// The call appending `batch` (numbered by `process`): `EVALSHA`, or `EVAL` when Redis may not have the script.
    static func command<Batch: Collection>(
        keys: SharedFeedKeys, retention: Int, process: String, batch: Batch, loadingScript: Bool = false
    ) -> [String] where Batch.Element == (number: Int, entry: SharedFeedPublisher.Entry) {
        var arguments = [String(retention), process]
        arguments.reserveCapacity(2 + 6 * batch.count)
        for (number, entry) in batch {
            arguments += [String(number), entry.event, entry.data, entry.leaseOwner, String(entry.leaseMilliseconds), entry.pipeline]
        }
        let scriptKeys = [keys.sequence, keys.stream, keys.clockLease, keys.published]
        return loadingScript ? publish.eval(keys: scriptKeys, arguments: arguments) : publish.evalSHA(keys: scriptKeys, arguments: arguments)
    }
}
