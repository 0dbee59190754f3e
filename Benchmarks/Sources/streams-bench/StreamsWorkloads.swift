// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Streams

/// The workloads on our Streams, written as the README shows them, plus the plain loop floor.
enum StreamsWorkloads {
    static func all() -> [Workload] {
        [plainLoop(), mapFilterReduceFrom(), mapFilterReduceCapturing(), mapFilterReduceCreate(), redirect(), fanOut()]
            + Sizes.zip.map(zip) + [chain()]
    }

    /// (a) without any stream: the floor every stream library is measured against.
    static func plainLoop() -> Workload {
        let count = Sizes.mapFilterReduce
        return Workload("a.loop", library: "plain loop", elements: count, expected: Expected.mapFilterReduce(count)) {
            let input = Array(0..<count)
            return {
                var sum = 0
                for x in input {
                    let doubled = x * 2
                    if doubled % 3 == 0 { sum += doubled }
                }
                return sum
            }
        }
    }

    /// (a) from an array with `DataStream.from`.
    static func mapFilterReduceFrom() -> Workload {
        let count = Sizes.mapFilterReduce
        return Workload("a.from", elements: count, expected: Expected.mapFilterReduce(count)) {
            let input = Array(0..<count)
            return { lastValue(of: DataStream.from(input).map { $0 * 2 }.filter { $0 % 3 == 0 }.reduce(0, +)) }
        }
    }

    /// (a) with `from`, but the closures capture values known only at run time: the optimizer
    /// cannot specialize them into the stage loops, so each value costs a closure call per stage.
    static func mapFilterReduceCapturing() -> Workload {
        let count = Sizes.mapFilterReduce
        return Workload("a.captures", elements: count, expected: Expected.mapFilterReduce(count)) {
            let input = Array(0..<count)
            let factor = input[1] * 2, divisor = input[3]
            return {
                lastValue(of: DataStream.from(input).map { $0 * factor }.filter { $0 % divisor == 0 }.reduce(0) { $0 + $1 * input[1] })
            }
        }
    }

    /// (a) from a hand-written source (`DataStream { watcher in … }`), the RxSwift `create` form.
    static func mapFilterReduceCreate() -> Workload {
        let count = Sizes.mapFilterReduce
        return Workload("a.create", elements: count, expected: Expected.mapFilterReduce(count)) {
            let input = Array(0..<count)
            let source = DataStream<Int> { watcher in
                for x in input { watcher.data(x) }
                watcher.end()
                return Disposable()
            }
            return { lastValue(of: source.map { $0 * 2 }.filter { $0 % 3 == 0 }.reduce(0, +)) }
        }
    }

    /// (b) redirect (flatMap) of single-element inner streams.
    static func redirect() -> Workload {
        let count = Sizes.redirect
        return Workload("b", elements: count, expected: Expected.sum(count)) {
            let input = Array(0..<count)
            return { lastValue(of: DataStream.from(input).redirect { DataStream.just($0) }.reduce(0, +)) }
        }
    }

    /// (c) one Streamer, 1,000 watchers, 1,000 events: ns per delivery.
    static func fanOut() -> Workload {
        let watchers = Sizes.fanOutWatchers, events = Sizes.fanOutEvents
        return Workload("c", elements: watchers * events, expected: watchers * Expected.sum(events)) {
            {
                let counter = Counter()
                let streamer = Streamer<Int>()
                let subscriptions = (0..<watchers).map { _ in streamer.watch(data: { counter.add($0) }) }
                for value in 0..<events { streamer.data(value) }
                streamer.end()
                subscriptions.forEach { $0.dispose() }
                return counter.total
            }
        }
    }

    /// (d) zip of two n-element streams: ns per pair.
    static func zip(_ count: Int) -> Workload {
        Workload("d.\(count)", elements: count, expected: 2 * Expected.sum(count)) {
            let left = Array(0..<count), right = Array(0..<count)
            return {
                lastValue(of: DataStream.zip(DataStream.from(left), DataStream.from(right)).map { $0 + $1 }.reduce(0, +))
            }
        }
    }

    /// A chain of 10,000 `map`s must run (DESIGN.md contract 5).
    static func chain() -> Workload {
        Workload("chain.\(Sizes.chain)", elements: Sizes.chain, expected: Sizes.chain + 1) {
            {
                var stream = DataStream.just(1)
                for _ in 0..<Sizes.chain {
                    stream = stream.map { $0 + 1 }
                }
                return lastValue(of: stream)
            }
        }
    }

    /// Watches a synchronous stream to its end and returns its last value (0 if none).
    static func lastValue(of stream: DataStream<Int>) -> Int {
        let last = LatestValue()
        withExtendedLifetime(stream.watch(data: { last.store($0) })) {}
        return last.current
    }
}
