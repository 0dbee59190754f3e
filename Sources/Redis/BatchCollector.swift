// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Gathers a pipelined batch's results, in order, for one completion.
// @unchecked: only touched from completions, which all run on one connection's serial loop queue.
final class BatchCollector: @unchecked Sendable {
    private var results: [Result<RESPValue, RedisError>] = []
    private let count: Int
    private let completion: @Sendable ([Result<RESPValue, RedisError>]) -> Void

    init(count: Int, completion: @escaping @Sendable ([Result<RESPValue, RedisError>]) -> Void) {
        self.count = count
        self.completion = completion
        results.reserveCapacity(count)
    }

    func add(_ result: Result<RESPValue, RedisError>) {
        results.append(result)
        if results.count == count { completion(results) }
    }
}
