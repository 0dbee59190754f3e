import Domain
import HTTP
import Redis
import StreamServiceConcurrency
import Streams

/// Each client's budget of upstream requests (`--client-upstream-rate`): checked before a route
/// starts any upstream work (over budget: 429), and charged with what the work really costs as it
/// lands (`UpstreamUsage`: cached answers free). With `--redis-url` every replica checks and
/// charges one budget in Redis, one script call each; while Redis is away or slow the replica
/// keeps to its own budget and never waits: a check waits at most `redisTimeout` once, then Redis
/// is left alone for `redisPause`. Charges go to both, so the local budget is warm when needed.
final class UpstreamBudget: Sendable {
    let policy: RatePolicy
    let local: LocalRateLimiter<[String: Double]>
    let redis: RedisConnection?
    /// 100 ms: Redis on the same network answers in about 1 ms; a request should not pay much
    /// more than that for a check, even when Redis is frozen.
    static let redisTimeout: Duration = .milliseconds(100)
    /// After a failed call, the replica decides alone this long before asking Redis again.
    static let redisPause: Double = 5
    private let redisAwayUntil = Locked<Double>(0)
    private let scriptLoaded = Locked(false)

    init(policy: RatePolicy, redis: RedisConnection? = nil) {
        self.policy = policy
        local = LocalRateLimiter(policy: policy)
        self.redis = redis
    }

    /// Runs `work` with the decision for `key`: synchronously from the local budget, or once Redis answered.
    func admit(_ key: String, then work: @escaping @Sendable (RateDecision) -> DataStream<Response>) -> DataStream<Response> {
        guard let redis = usableRedis() else { return work(local.admit(key)) }
        return DataStream<RateDecision> { watcher in
            self.call(redis, key: key, cost: 0) { level in
                watcher.data(level.map { RateDecision(level: $0, policy: self.policy) } ?? self.local.admit(key))
                watcher.end()
            }
            return Disposable()
        }.redirect(work)
    }

    /// For `/ready`: `shared` while checks go to Redis, `local` while this replica decides alone; nil without Redis.
    var status: String? {
        guard redis != nil else { return nil }
        return usableRedis() == nil ? "local" : "shared"
    }

    /// Adds `cost` spent units to `key`'s budget, here and (without waiting) in Redis.
    func charge(_ key: String, cost: Int) {
        local.charge(key, cost: cost)
        if let redis = usableRedis() { call(redis, key: key, cost: cost) { _ in } }
    }

    private func usableRedis() -> RedisConnection? {
        guard let redis, redis.state == .connected, CoarseClock.now() >= redisAwayUntil.withLock({ $0 }) else { return nil }
        return redis
    }

    /// One script call; `completion` gets the debt in seconds, or nil when Redis did not answer.
    private func call(_ redis: RedisConnection, key: String, cost: Int, completion: @escaping @Sendable (Double?) -> Void) {
        let loading = !scriptLoaded.withLock { $0 }
        redis.send(BudgetScript.call(key: key, cost: cost, policy: policy, loading: loading), timeout: Self.redisTimeout) { [self] result in
            switch result {
            case .success(let value):
                if loading { scriptLoaded.withLock { $0 = true } }
                completion(value.int.map { Double($0) / 1000 })
            case .failure(let error) where RedisScript.isMissingScript(error):
                // Redis restarted and forgot the script: the next call sends it whole.
                scriptLoaded.withLock { $0 = false }
                completion(nil)
            case .failure:
                redisAwayUntil.withLock { $0 = CoarseClock.now() + Self.redisPause }
                completion(nil)
            }
        }
    }
}
