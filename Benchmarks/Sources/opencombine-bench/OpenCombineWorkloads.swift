// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import BenchSupport
import OpenCombine

/// The workloads written as an OpenCombine user would write them.
enum OpenCombineWorkloads {
    static func all() -> [Workload] {
        [mapFilterReduceEager(), mapFilterReduceStreaming(), flatMap(), fanOut()]
            + Sizes.zip.map(zip) + [chain()]
    }

    /// (a) in OpenCombine's default form: on `array.publisher` these operators run eagerly on the array.
    static func mapFilterReduceEager() -> Workload {
        let count = Sizes.mapFilterReduce
        return Workload("a.eager", elements: count, expected: Expected.mapFilterReduce(count)) {
            let input = Array(0..<count)
            return {
                var result = 0
                let cancellable = input.publisher
                    .map { $0 * 2 }
                    .filter { $0 % 3 == 0 }
                    .reduce(0, +)
                    .sink { result = $0 }
                cancellable.cancel()
                return result
            }
        }
    }

    /// (a) streaming: the same chain element by element through subscriptions (type-erased source).
    static func mapFilterReduceStreaming() -> Workload {
        let count = Sizes.mapFilterReduce
        return Workload("a.streaming", elements: count, expected: Expected.mapFilterReduce(count)) {
            let input = Array(0..<count)
            return {
                var result = 0
                let cancellable = input.publisher.eraseToAnyPublisher()
                    .map { $0 * 2 }
                    .filter { $0 % 3 == 0 }
                    .reduce(0, +)
                    .sink { result = $0 }
                cancellable.cancel()
                return result
            }
        }
    }

    /// (b) flatMap of single-element inner publishers.
    static func flatMap() -> Workload {
        let count = Sizes.redirect
        return Workload("b", elements: count, expected: Expected.sum(count)) {
            let input = Array(0..<count)
            return {
                var result = 0
                let cancellable = input.publisher
                    .flatMap { Just($0) }
                    .reduce(0, +)
                    .sink { result = $0 }
                cancellable.cancel()
                return result
            }
        }
    }

    /// (c) one PassthroughSubject, 1,000 subscribers, 1,000 values: ns per delivery.
    static func fanOut() -> Workload {
        let watchers = Sizes.fanOutWatchers, events = Sizes.fanOutEvents
        return Workload("c", elements: watchers * events, expected: watchers * Expected.sum(events)) {
            {
                let counter = Counter()
                let subject = PassthroughSubject<Int, Never>()
                let cancellables = (0..<watchers).map { _ in subject.sink { counter.add($0) } }
                for value in 0..<events { subject.send(value) }
                subject.send(completion: .finished)
                cancellables.forEach { $0.cancel() }
                return counter.total
            }
        }
    }

    /// (d) zip of two n-element sources: ns per pair.
    static func zip(_ count: Int) -> Workload {
        Workload("d.\(count)", elements: count, expected: 2 * Expected.sum(count)) {
            let left = Array(0..<count), right = Array(0..<count)
            return {
                var result = 0
                let cancellable = left.publisher.zip(right.publisher)
                    .map { $0 + $1 }
                    .reduce(0, +)
                    .sink { result = $0 }
                cancellable.cancel()
                return result
            }
        }
    }

    /// A chain of 10,000 operators: does it run at all?
    static func chain() -> Workload {
        Workload("chain.\(Sizes.chain)", elements: Sizes.chain, expected: Sizes.chain + 1) {
            {
                var publisher = Just(1).eraseToAnyPublisher()
                for _ in 0..<Sizes.chain {
                    publisher = publisher.map { $0 + 1 }.eraseToAnyPublisher()
                }
                var result = 0
                let cancellable = publisher.sink { result = $0 }
                cancellable.cancel()
                return result
            }
        }
    }
}
