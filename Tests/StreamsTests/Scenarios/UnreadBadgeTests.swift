// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// Unread badge: the list of chats changes, each chat has its own unread flag that
/// flips, and the badge counts the current chats that are unread: `redirectLatest`
/// over the `combineLatest` of the current chats' flags.
final class UnreadBadgeTests: XCTestCase {
    private struct Chat: Sendable {
        let name: String
        let unread: ValueStreamer<Bool>

        init(_ name: String, unread: Bool = false) {
            self.name = name
            self.unread = ValueStreamer(unread)
        }
    }

    private func badge(for chats: some StreamType<[Chat]>) -> DataStream<Int> {
        chats
            .redirectLatest { chats -> DataStream<Int> in
                guard !chats.isEmpty else { return .just(0) }
                let flags: [any StreamType<Bool>] = chats.map(\.unread)
                return DataStream.combineLatest(flags).map { flags in flags.filter { $0 }.count }
            }
            .uniqueTransition()
    }

    func testTheBadgeCountsTheUnreadChatsOfTheList() {
        let chats = ValueStreamer([Chat("ann", unread: true), Chat("bob"), Chat("cy", unread: true)])
        let recorder = EventRecorder<Int>()
        badge(for: chats).watch(using: recorder.watcher)
        XCTAssertEqual(recorder.values, [2])
    }

    func testTheBadgeFollowsFlagsFlipping() {
        let ann = Chat("ann")
        let bob = Chat("bob")
        let recorder = EventRecorder<Int>()
        badge(for: ValueStreamer([ann, bob])).watch(using: recorder.watcher)
        ann.unread.data(true)
        bob.unread.data(true)
        ann.unread.data(false)
        ann.unread.data(false)
        XCTAssertEqual(recorder.values, [0, 1, 2, 1])
    }

    func testAnAddedChatCountsWithItsCurrentFlag() {
        let ann = Chat("ann", unread: true)
        let chats = ValueStreamer([ann])
        let recorder = EventRecorder<Int>()
        badge(for: chats).watch(using: recorder.watcher)
        chats.data([ann, Chat("bob", unread: true)])
        XCTAssertEqual(recorder.values, [1, 2])
    }

    func testARemovedChatIsNeverCountedAgain() {
        let ann = Chat("ann")
        let bob = Chat("bob", unread: true)
        let chats = ValueStreamer([ann, bob])
        let recorder = EventRecorder<Int>()
        badge(for: chats).watch(using: recorder.watcher)
        chats.data([ann])
        bob.unread.data(false)
        bob.unread.data(true)
        ann.unread.data(true)
        XCTAssertEqual(recorder.values, [1, 0, 1])
        XCTAssertEqual(bob.unread.watcherCount, 0, "the removed chat is no longer watched")
    }

    func testAnEmptyListShowsZero() {
        let ann = Chat("ann", unread: true)
        let chats = ValueStreamer([ann])
        let recorder = EventRecorder<Int>()
        badge(for: chats).watch(using: recorder.watcher)
        chats.data([])
        XCTAssertEqual(recorder.values, [1, 0])
    }

    func testChangesOnTimeFollowTheTimeline() {
        let scheduler = TestScheduler()
        let ann = Chat("ann")
        let bob = Chat("bob")
        let chats = scheduler.hotStream([.at(0, .data([ann])), .at(300, .data([ann, bob])), .at(600, .data([bob]))])
        scheduler.at(100) { ann.unread.data(true) }
        scheduler.at(400) { bob.unread.data(true) }
        scheduler.at(700) { ann.unread.data(false) }
        scheduler.at(800) { bob.unread.data(false) }
        let (recorder, _) = scheduler.record(badge(for: chats))
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [
            .at(0, .data(0)), .at(100, .data(1)), .at(400, .data(2)), .at(600, .data(1)), .at(800, .data(0)),
        ])
    }
}
