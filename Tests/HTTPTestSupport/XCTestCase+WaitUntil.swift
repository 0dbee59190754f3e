// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Synchronization
import XCTest

extension XCTestCase {
    /// Waits, without sleeping the test thread, until `condition` holds or `timeout` passes.
    public func waitUntil(_ description: String, timeout: TimeInterval = 2, _ condition: @escaping @Sendable () -> Bool) {
        let done = expectation(description: description)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "test.poll"))
        let fulfilled = Atomic<Bool>(false)
        timer.schedule(deadline: .now(), repeating: .milliseconds(10))
        timer.setEventHandler {
            if condition(), !fulfilled.exchange(true, ordering: .relaxed) { done.fulfill() }
        }
        timer.resume()
        wait(for: [done], timeout: timeout)
        timer.cancel()
    }
}
