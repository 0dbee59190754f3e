// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import Synchronization
import XCTest
import HTTP

/// The watcher's handler is in place when it is made: a signal sent at once is delivered, not
/// dropped while Dispatch sets up (it was, 1 time in 30, with Dispatch signal sources).
final class SignalWatcherTests: XCTestCase {
    func testASignalSentTheMomentTheWatcherExistsReachesTheHandlerWithItsNumber() {
        let received = Mutex<[Int32]>([])
        let arrived = DispatchSemaphore(value: 0)
        let watcher = SignalWatcher(signals: [SIGUSR2]) { number in
            received.withLock { $0.append(number) }
            arrived.signal()
        }
        defer { watcher.cancel() }
        kill(getpid(), SIGUSR2)
        XCTAssertEqual(arrived.wait(timeout: .now() + 5), .success, "SIGUSR2 sent right after the watcher was made never arrived")
        XCTAssertEqual(received.withLock { $0 }, [SIGUSR2])
    }

    func testEachOfSeveralSignalsSentAtOnceIsDelivered() {
        let count = Mutex(0)
        let arrived = DispatchSemaphore(value: 0)
        let watcher = SignalWatcher(signals: [SIGUSR2]) { _ in
            count.withLock { $0 += 1 }
            arrived.signal()
        }
        defer { watcher.cancel() }
        for _ in 0..<3 {
            kill(getpid(), SIGUSR2)
            XCTAssertEqual(arrived.wait(timeout: .now() + 5), .success)
        }
        XCTAssertEqual(count.withLock { $0 }, 3)
    }

    func testAfterCancelTheSignalIsIgnoredAndTheProcessLivesOn() {
        let watcher = SignalWatcher(signals: [SIGUSR2]) { _ in }
        watcher.cancel()
        var action = sigaction()
        sigaction(SIGUSR2, nil, &action)
        XCTAssertEqual(unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self), unsafeBitCast(SIG_IGN, to: Int.self))
        // Ignored, the signal does not end this process as SIGUSR2's default action would.
        kill(getpid(), SIGUSR2)
    }
}
