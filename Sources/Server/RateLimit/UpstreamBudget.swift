// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import HTTP
import Redis
import StreamServiceConcurrency
import Streams

/// Each client's budget of upstream requests (`--client-upstream-rate`). A request reserves its
/// estimated cost before any upstream work (`reserve`: over budget, 429) and is reconciled with
/// what the work really cost (`UpstreamReservation`: cached answers free). Reserving, not only
/// checking, is what keeps concurrent requests of one client within its budget: 100 of them
/// passed one check each and cost 205 upstream requests on a budget of 5 (issue 34).
///
/// With `--redis-url` every replica reserves and reconciles in one budget in Redis, one script
/// call each; while Redis is away or slow the replica keeps to its own budget and never waits: a
/// reservation waits at most `redisTimeout` once, then Redis is left alone for `redisPause`.
/// Charges go to both, so the local budget is warm when needed.
final class UpstreamBudget: Sendable {
    let policy: RatePolicy
    let local: LocalRateLimiter<BoundedDebts<String>>
    let redis: RedisConnection?
    /// How clients without a token subject are told apart by address.
    let addresses: ClientAddressKey
    /// 100 ms by default: Redis on the same network answers in about 1 ms; a request should not
    /// pay much more than that for a check, even when Redis is frozen. Past it the replica decides
    /// alone (`redisPause`), so a check that is merely slow (a busy machine) is not shared either.
    static let defaultRedisTimeout: Duration = .milliseconds(100)
    let redisTimeout: Duration
    /// After a failed call, the replica decides alone this long before asking Redis again.
    static let redisPause: Double = 5
    private let redisAwayUntil = Locked<Double>(0)
    private let scriptLoaded = Locked(false)

    init(
        policy: RatePolicy, redis: RedisConnection? = nil, addresses: ClientAddressKey = .standard,
        maximumClients: Int = LocalRateLimiter<BoundedDebts<String>>.defaultMaximumClients,
        redisTimeout: Duration = UpstreamBudget.defaultRedisTimeout
    ) {
        self.policy = policy
        self.redisTimeout = redisTimeout
        local = LocalRateLimiter(policy: policy, maximumClients: maximumClients)
        self.redis = redis
        self.addresses = addresses
    }

    /// Runs `work` with the decision on `estimate` units for `key` and, when allowed, the
    /// reservation holding them: synchronously from the local budget, or once Redis answered.
    func reserve(_ key: String, estimate: Int, then work: @escaping @Sendable (UpstreamAdmission) -> DataStream<Response>) -> DataStream<Response> {
        guard let redis = usableRedis() else { return work(reserveLocally(key, estimate: estimate)) }
        return DataStream<UpstreamAdmission> { watcher in
            let fitting = self.policy.capacity - self.policy.footprint(estimate)
            self.call(redis, key: key, cost: estimate, fitting: fitting) { answer in
                watcher.data(answer.map { self.admission(key, estimate: estimate, shared: $0) } ?? self.reserveLocally(key, estimate: estimate))
                watcher.end()
            }
            return Disposable()
        }.redirect(work)
    }

    private func reserveLocally(_ key: String, estimate: Int) -> UpstreamAdmission {
        let (decision, level) = local.reserve(key, cost: estimate)
        guard decision.allowed else { return UpstreamAdmission(decision: decision, reservation: nil) }
        return UpstreamAdmission(decision: decision, reservation: UpstreamReservation(self, key: key, estimate: estimate, level: level, shared: false))
    }

    /// Redis' answer: taken there, the units are charged here too (warm for when Redis is away).
    private func admission(_ key: String, estimate: Int, shared answer: (taken: Bool, level: Double)) -> UpstreamAdmission {
        guard answer.taken else {
            return UpstreamAdmission(decision: RateDecision(level: answer.level, policy: policy, cost: estimate), reservation: nil)
        }
        local.charge(key, cost: estimate)
        let decision = RateDecision(allowedAfter: answer.level, policy: policy)
        return UpstreamAdmission(decision: decision, reservation: UpstreamReservation(self, key: key, estimate: estimate, level: answer.level, shared: true))
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

    /// Gives `units` reserved but not spent back to `key`: here, and in Redis when it was reserved there.
    func giveBack(_ key: String, units: Int, shared: Bool) {
        local.charge(key, cost: -units)
        if shared, let redis = usableRedis() { call(redis, key: key, cost: -units) { _ in } }
    }

    private func usableRedis() -> RedisConnection? {
        guard let redis, redis.state == .connected, CoarseClock.now() >= redisAwayUntil.withLock({ $0 }) else { return nil }
        return redis
    }

    /// One script call; `completion` gets whether the units were taken and the debt in seconds
    /// after, or nil when Redis did not answer.
    private func call(
        _ redis: RedisConnection, key: String, cost: Int, fitting: Double? = nil,
        completion: @escaping @Sendable ((taken: Bool, level: Double)?) -> Void
    ) {
        let loading = !scriptLoaded.withLock { $0 }
        let command = BudgetScript.call(key: key, cost: cost, fitting: fitting, policy: policy, loading: loading)
        redis.send(command, timeout: redisTimeout) { [self] result in
            switch result {
            case .success(let value):
                if loading { scriptLoaded.withLock { $0 = true } }
                completion(BudgetScript.answer(value))
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

/// A reservation's answer: the decision, and when allowed, the reservation holding the units.
struct UpstreamAdmission: Sendable {
    let decision: RateDecision
    let reservation: UpstreamReservation?
}
