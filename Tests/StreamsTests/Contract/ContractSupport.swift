// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Foundation
import Synchronization
import XCTest
import Streams
import StreamsTesting

/// Counts deliveries and notices when two happen at once.
final class OverlapDetector: Sendable {
    private let inside = Atomic<Bool>(false)
    private let overlapCount = Atomic<Int>(0)
    private let deliveries = Atomic<Int>(0)

    var overlaps: Int { overlapCount.load(ordering: .acquiring) }
    var count: Int { deliveries.load(ordering: .acquiring) }

    /// Call from inside a watcher: marks the delivery as in progress while `work` runs.
    func deliver(_ work: () -> Void = {}) {
        if inside.exchange(true, ordering: .acquiringAndReleasing) {
            overlapCount.add(1, ordering: .relaxed)
        }
        deliveries.add(1, ordering: .relaxed)
        work()
        inside.store(false, ordering: .releasing)
    }
}

/// A stream that emits `0..<count` from a global-queue thread, then ends.
func backgroundRange(_ count: Int) -> DataStream<Int> {
    DataStream { watcher in
        let box = CancelFlag()
        DispatchQueue.global().async {
            for value in 0..<count {
                if box.isCancelled { return }
                watcher.data(value)
            }
            watcher.end()
        }
        return Disposable { box.cancel() }
    }
}

final class CancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isCancelled: Bool { flag.load(ordering: .acquiring) }
    func cancel() { flag.store(true, ordering: .releasing) }
}

/// Something a closure can capture, to check the closure is released.
final class Token: Sendable {}

/// Runs `body` on a new thread with an 8 MiB stack (the default main-thread size) and waits for it.
func onEightMebibyteStack(_ test: XCTestCase, timeout: TimeInterval = 120, _ body: @escaping @Sendable () -> Void) {
    let done = test.expectation(description: "finished on an 8 MiB stack")
    let thread = Thread {
        body()
        done.fulfill()
    }
    thread.stackSize = 8 << 20
    thread.start()
    test.wait(for: [done], timeout: timeout)
}
