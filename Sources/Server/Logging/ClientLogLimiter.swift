// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import StreamServiceConcurrency

/// Bounds the log lines clients can cause, per client and in all. One bucket for everyone let one
/// noisy peer spend it and so hide every other client's lines; here each client address (an IPv6
/// client by its /64, which one host commonly holds whole) has a bucket of its own, and every line
/// also takes a token from one shared bucket, so that many clients together are still bounded.
///
/// At most `maxClients` buckets are kept: when the table is full, buckets that are full again and
/// owe no report (a client gone quiet) are forgotten, at most once a second; if none is, the new
/// client shares one overflow bucket until a sweep makes room.
final class ClientLogLimiter: Sendable {
    private struct State {
        var clients: [IPAddress: LogTokenBucket] = [:]
        /// Clients without a bucket of their own: an unreadable address, or a full table.
        var overflow: LogTokenBucket
        var overall: LogTokenBucket
        var sweptAt: ContinuousClock.Instant
    }

    let perClient: LogTokenBucket.Rate
    let overall: LogTokenBucket.Rate
    let maxClients: Int
    private let state: Locked<State>

    init(perClient: LogTokenBucket.Rate, overall: LogTokenBucket.Rate, maxClients: Int, now: ContinuousClock.Instant = .now) {
        self.perClient = perClient
        self.overall = overall
        self.maxClients = max(1, maxClients)
        state = Locked(State(overflow: LogTokenBucket(perClient, now: now), overall: LogTokenBucket(overall, now: now), sweptAt: now))
    }

    /// nil when this line of `remoteAddress`'s (`127.0.0.1:53122`, `[2001:db8::1]:443`) is held
    /// back; else how many of that client's lines were held back since its last one let through.
    func admit(from remoteAddress: String, now: ContinuousClock.Instant = .now) -> Int? {
        let client = IPAddress(peer: remoteAddress).map(Self.key)
        return state.withLock { state in
            guard let client, state.clients[client] != nil || makeRoom(&state, now: now) else {
                return Self.admit(&state.overflow, perClient, &state.overall, overall, now: now)
            }
            return Self.admit(&state.clients[client, default: LogTokenBucket(perClient, now: now)], perClient, &state.overall, overall, now: now)
        }
    }

    /// The bucket key: an IPv4 address whole, an IPv6 address by its /64.
    static func key(_ address: IPAddress) -> IPAddress {
        address.isIPv4 ? address : IPAddress(high: address.high, low: 0)
    }

    private static func admit(
        _ bucket: inout LogTokenBucket, _ rate: LogTokenBucket.Rate, _ shared: inout LogTokenBucket, _ sharedRate: LogTokenBucket.Rate,
        now: ContinuousClock.Instant
    ) -> Int? {
        guard bucket.take(rate, now: now), shared.take(sharedRate, now: now) else {
            bucket.holdBack()
            return nil
        }
        return bucket.takeSuppressed()
    }

    /// Whether the table has room for one more client, forgetting idle ones if it is full.
    private func makeRoom(_ state: inout State, now: ContinuousClock.Instant) -> Bool {
        guard state.clients.count >= maxClients else { return true }
        guard now - state.sweptAt >= .seconds(1) else { return false }
        state.sweptAt = now
        let rate = perClient
        state.clients = state.clients.filter { _, bucket in
            var bucket = bucket
            return !bucket.isIdle(rate, now: now)
        }
        return state.clients.count < maxClients
    }
}
