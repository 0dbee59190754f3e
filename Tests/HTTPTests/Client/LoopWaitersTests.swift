// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
@testable import HTTP

/// Which waiting request a freed connection goes to: its own loop's first, no waiter overtaken
/// beyond the bound, free slots first come first served.
final class LoopWaitersTests: XCTestCase {
    /// Stand-ins for event loops: only their identities matter here.
    private final class Loop {}
    private let a = Loop(), b = Loop()
    private var loopA: ObjectIdentifier { ObjectIdentifier(a) }
    private var loopB: ObjectIdentifier { ObjectIdentifier(b) }

    /// Waiters named by string, queued in the order given (ids 1, 2, …).
    private func queue(_ waiters: [(String, ObjectIdentifier?)], maxOvertaken: Int = 16) -> LoopWaiters<String> {
        var queue = LoopWaiters<String>(maxOvertaken: maxOvertaken)
        for (index, (name, loop)) in waiters.enumerated() { queue.append(name, id: UInt64(index + 1), loop: loop) }
        return queue
    }

    func testAConnectionGoesToTheOldestWaiterOfItsOwnLoop() {
        var waiters = queue([("b1", loopB), ("a1", loopA), ("a2", loopA)])
        XCTAssertEqual(waiters.pop(for: loopA), "a1")
        XCTAssertEqual(waiters.pop(for: loopA), "a2")
        XCTAssertEqual(waiters.count, 1)
    }

    func testWithNoWaiterOfItsLoopTheOldestWaiterGetsIt() {
        var waiters = queue([("b1", loopB), ("b2", loopB)])
        XCTAssertEqual(waiters.pop(for: loopA), "b1")
    }

    func testAWaiterOnNoLoopTakesAConnectionOfAnyLoopInItsTurn() {
        var waiters = queue([("b1", loopB), ("none", nil), ("a1", loopA)])
        XCTAssertEqual(waiters.pop(for: loopA), "none", "older than a1, and any loop suits it")
        XCTAssertEqual(waiters.pop(for: loopA), "a1")
    }

    func testTheOldestWaiterIsOvertakenAtMostTheBoundManyTimes() {
        var waiters = queue([("b1", loopB)] + (1...5).map { ("a\($0)", loopA) }, maxOvertaken: 3)
        XCTAssertEqual(waiters.pop(for: loopA), "a1")
        XCTAssertEqual(waiters.pop(for: loopA), "a2")
        XCTAssertEqual(waiters.pop(for: loopA), "a3")
        XCTAssertEqual(waiters.pop(for: loopA), "b1", "overtaken three times: its turn now")
        XCTAssertEqual(waiters.pop(for: loopA), "a4")
    }

    func testAFreeSlotGoesToTheOldestWaiterWhateverItsLoop() {
        var waiters = queue([("b1", loopB), ("a1", loopA)])
        XCTAssertEqual(waiters.pop(for: nil), "b1")
        XCTAssertEqual(waiters.pop(for: nil), "a1")
        XCTAssertNil(waiters.pop(for: nil))
    }

    func testARemovedWaiterIsNeverGranted() {
        var waiters = queue([("a1", loopA), ("a2", loopA), ("b1", loopB)])
        XCTAssertTrue(waiters.remove(1))
        XCTAssertFalse(waiters.remove(1), "gone already")
        XCTAssertEqual(waiters.pop(for: loopA), "a2")
        XCTAssertEqual(waiters.pop(for: loopA), "b1")
        XCTAssertTrue(waiters.isEmpty)
    }

    func testAHeadThatLeavesTakesItsOvertakenCountWithIt() {
        var waiters = queue([("b1", loopB), ("b2", loopB)] + (1...4).map { ("a\($0)", loopA) }, maxOvertaken: 2)
        XCTAssertEqual(waiters.pop(for: loopA), "a1")
        XCTAssertEqual(waiters.pop(for: loopA), "a2")
        XCTAssertTrue(waiters.remove(1), "b1 gives up after being overtaken twice")
        XCTAssertEqual(waiters.pop(for: loopA), "a3", "b2, the new head, has not been overtaken yet")
    }
}
