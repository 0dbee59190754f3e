// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import StreamsTesting
import XCTest

/// The first-message task: each open chat reports its latest message, `nil` while
/// it has none. The app wants the first real message of each chat (ignore `nil`,
/// `take(1)`), from all open chats together (`merge`), and starts over whenever
/// the set of open chats changes (`switchToLatest`).
final class FirstMessageTests: XCTestCase {
    func testNilIsIgnoredAndOnlyTheFirstRealMessageOfEachChatPasses() {
        let scheduler = TestScheduler()
        let ann: Chat = scheduler.hotStream([.data(210, nil), .data(300, "hi from ann"), .data(400, "again")])
        let bob: Chat = scheduler.hotStream([.data(250, "hey, bob here"), .data(500, "still bob")])
        let recorder = scheduler.start { firstMessages(of: [ann, bob]) }
        XCTAssertEqual(recorder.events, [.data(250, "hey, bob here"), .data(300, "hi from ann"), .end(300)])
        XCTAssertEqual(ann.subscriptions, [SubscriptionSpan(200, 300)])
        XCTAssertEqual(bob.subscriptions, [SubscriptionSpan(200, 250)])
    }

    func testANewSetOfChatsStartsOverAndDropsTheOldOnes() {
        let scheduler = TestScheduler()
        let ann: Chat = scheduler.hotStream([.data(600, "late ann")])
        let bob: Chat = scheduler.hotStream([.data(300, "bob first"), .data(700, "bob again")])
        let cid: Chat = scheduler.hotStream([.data(800, "cid first")])
        let openChats = scheduler.hotStream([.data(210, [ann]), .data(500, [bob, cid])])
        let recorder = scheduler.start { openChats.map { firstMessages(of: $0) }.switchToLatest() }
        // ann's message comes after she was closed; bob's 300 ms message came before he was opened.
        XCTAssertEqual(recorder.events, [.data(700, "bob again"), .data(800, "cid first")])
        XCTAssertEqual(ann.subscriptions, [SubscriptionSpan(210, 500)])
    }
}

private typealias Chat = HotStream<String?>

/// The first real message of each chat, from all of them together.
private func firstMessages(of chats: [Chat]) -> DataStream<String> {
    DataStream.merge(chats.map { chat in chat.compactMap { $0 }.take(1) })
}
