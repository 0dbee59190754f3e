// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Redis

/// The Lua scripts every replica runs against the shared stream. Running INCR and XADD in one
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
///
/// Ids only move forward (`SharedFeedHistory`): both scripts take the caller's floor, the
/// highest id its replica has read; a counter below it means this Redis lost writes the
/// replica saw (a failover before they were replicated, a restart from older data), so the
/// counter moves past the floor by `SharedFeedHistory.margin` and a new epoch names the new
/// history, which every replica's ingest sees on its next round and answers with `reset`.
enum SharedFeedScript {
    /// Shared by both scripts: when the counter (KEYS[1]) is below `floor`, or `force` is set
    /// and the epoch (KEYS[2]) is still `known`, move the counter to max(counter, floor) +
    /// margin and write the new epoch `token.base`; returns the epoch.
    private static let rebase = """
        local function rebase(floor, token, margin, force, known)
          local seq = tonumber(redis.call('GET', KEYS[1]) or '0')
          local epoch = redis.call('GET', KEYS[2])
          if seq < floor or (force and epoch == known) then
            local base = math.max(seq, floor) + margin
            redis.call('SET', KEYS[1], base)
            epoch = token .. '.' .. base
            redis.call('SET', KEYS[2], epoch)
          elseif not epoch then
            epoch = token .. '.' .. seq
            redis.call('SET', KEYS[2], epoch)
          end
          return epoch
        end
        """

    /// KEYS: sequence, epoch, stream, clock lease, published (hash: process token → last number).
    /// ARGV: retention, process token, floor, epoch token, margin, then per event: number, event,
    /// data, lease owner ('' = none), lease ms, pipeline.
    /// Returns per event the new id; 0 when a tick lost the lease to another replica; -1 for a repeat.
    static let publish = RedisScript(rebase + """

        rebase(tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5]), false, nil)
        local last = tonumber(redis.call('HGET', KEYS[5], ARGV[2]) or '0')
        local top = last
        local results = {}
        for i = 6, #ARGV, 6 do
          local number = tonumber(ARGV[i])
          local result = -1
          if number > top then
            top = number
            result = 0
            local owner = ARGV[i + 3]
            local holder = owner ~= '' and redis.call('GET', KEYS[4])
            if not holder or holder == owner then
              if owner ~= '' then redis.call('SET', KEYS[4], owner, 'PX', ARGV[i + 4]) end
              result = redis.call('INCR', KEYS[1])
              redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[1], result .. '-0', 'e', ARGV[i + 1], 'p', ARGV[i + 5], 'd', ARGV[i + 2])
            end
          end
          results[#results + 1] = result
        end
        if top > last then redis.call('HSET', KEYS[5], ARGV[2], top) end
        return results
        """)

    /// The ingest's look at the history each round. KEYS: sequence, epoch.
    /// ARGV: floor, epoch token, margin, force ('1' = the history read is not there any more),
    /// the epoch the ingest knows. Returns the epoch (created when missing).
    static let observe = RedisScript(rebase + """

        return rebase(tonumber(ARGV[1]), ARGV[2], tonumber(ARGV[3]), ARGV[4] == '1', ARGV[5])
        """)

    /// The call appending `batch` (numbered by `process`): `EVALSHA`, or `EVAL` when Redis may not have the script.
    static func command<Batch: Collection>(
        keys: SharedFeedKeys, retention: Int, process: String, floor: Int = 0, batch: Batch, loadingScript: Bool = false
    ) -> [String] where Batch.Element == (number: Int, entry: SharedFeedPublisher.Entry) {
        var arguments = [String(retention), process, String(floor), SharedFeedHistory.newToken(), String(SharedFeedHistory.margin)]
        arguments.reserveCapacity(5 + 6 * batch.count)
        for (number, entry) in batch {
            arguments += [String(number), entry.event, entry.data, entry.leaseOwner, String(entry.leaseMilliseconds), entry.pipeline]
        }
        let scriptKeys = [keys.sequence, keys.epoch, keys.stream, keys.clockLease, keys.published]
        return loadingScript ? publish.eval(keys: scriptKeys, arguments: arguments) : publish.evalSHA(keys: scriptKeys, arguments: arguments)
    }

    /// The ingest's call: the epoch, after moving the counter past `floor` if it is below (or
    /// when `force`, the history having changed under an unchanged counter, while the epoch is `known`).
    static func observeCommand(keys: SharedFeedKeys, floor: Int, force: Bool = false, known: String?) -> [String] {
        observe.eval(keys: [keys.sequence, keys.epoch], arguments: [String(floor), SharedFeedHistory.newToken(), String(SharedFeedHistory.margin), force ? "1" : "0", known ?? ""])
    }
}

/// The rules that keep one id from ever naming two events when Redis loses writes.
enum SharedFeedHistory {
    /// How far ids jump past the highest one a replica read when the history changed: far more
    /// than any replica lags behind (events read but not yet seen elsewhere), so after one
    /// jump every replica's floor is below the counter and ids only move forward everywhere.
    static let margin = 1 << 20

    static func newToken() -> String {
        String(UInt64.random(in: 1...UInt64.max), radix: 36)
    }

    /// The id a new history starts after: `token.base`; an epoch from before this scheme has none (0).
    static func base(ofEpoch epoch: String) -> Int {
        guard let dot = epoch.lastIndex(of: ".") else { return 0 }
        return Int(epoch[epoch.index(after: dot)...]) ?? 0
    }
}
