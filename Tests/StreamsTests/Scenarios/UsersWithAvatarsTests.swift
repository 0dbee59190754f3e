// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// Users with avatars: a stream of users, each user's avatar fetched as a stream of
/// its own, attached serially with `concat` or in parallel with `merge`, and
/// aggregated with `toArray`. In virtual time the parallel form takes about the
/// longest fetch, the serial form the sum of them.
final class UsersWithAvatarsTests: XCTestCase {
    fileprivate struct User: Equatable, Sendable {
        let login: String
        let avatarLatency: Int
    }

    fileprivate struct UserWithAvatar: Equatable, Sendable {
        let login: String
        let avatar: String
    }

    private struct AvatarUnavailable: Error {}

    private let users = [
        User(login: "ann", avatarLatency: 300),
        User(login: "bob", avatarLatency: 100),
        User(login: "cy", avatarLatency: 250),
    ]

    private func serial(_ users: [User], scheduler: TestScheduler) -> DataStream<[UserWithAvatar]> {
        DataStream.just(data: users).toArray()
            .redirect { users in DataStream.concat(users.map { avatarFetch(of: $0, scheduler: scheduler) }) }
            .toArray()
    }

    private func parallel(_ users: [User], scheduler: TestScheduler) -> DataStream<[UserWithAvatar]> {
        DataStream.just(data: users).toArray()
            .redirect { users in DataStream.merge(users.map { avatarFetch(of: $0, scheduler: scheduler) }) }
            .toArray()
    }

    func testSerialAttachesAvatarsInUserOrderTakingTheSumOfTheFetches() {
        let scheduler = TestScheduler()
        let (recorder, _) = scheduler.record(serial(users, scheduler: scheduler))
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(recorder.events, [
            .at(650, .data([
                UserWithAvatar(login: "ann", avatar: "ann.png"),
                UserWithAvatar(login: "bob", avatar: "bob.png"),
                UserWithAvatar(login: "cy", avatar: "cy.png"),
            ])),
            .at(650, .end),
        ])
    }

    func testParallelAttachesAvatarsAsTheyLandTakingTheLongestFetch() {
        let scheduler = TestScheduler()
        let (recorder, _) = scheduler.record(parallel(users, scheduler: scheduler))
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(recorder.events, [
            .at(300, .data([
                UserWithAvatar(login: "bob", avatar: "bob.png"),
                UserWithAvatar(login: "cy", avatar: "cy.png"),
                UserWithAvatar(login: "ann", avatar: "ann.png"),
            ])),
            .at(300, .end),
        ])
    }

    func testBoundedConcurrencyStartsTheNextFetchWhenOneFinishes() {
        let scheduler = TestScheduler()
        let twoAtATime = DataStream.just(data: users)
            .redirect(maxConcurrent: 2) { avatarFetch(of: $0, scheduler: scheduler) }
            .toArray()
        let (recorder, _) = scheduler.record(twoAtATime)
        scheduler.advance(to: .seconds(2))
        // ann and bob start at 0; cy starts when bob lands at 100 and lands at 350.
        XCTAssertEqual(recorder.events.map(\.time), [350, 350])
        XCTAssertEqual(recorder.values.first?.map(\.login), ["bob", "ann", "cy"])
    }

    func testAFailingAvatarFailsTheAggregateOnceAndCancelsTheOtherFetches() {
        let scheduler = TestScheduler()
        let fetches = DataStream.just(data: users).toArray().redirect { users in
            DataStream.merge(users.map { user -> DataStream<UserWithAvatar> in
                user.login == "bob"
                    ? scheduler.coldStream([.error(100, AvatarUnavailable())]).asDataStream()
                    : avatarFetch(of: user, scheduler: scheduler)
            })
        }
        let (recorder, _) = scheduler.record(fetches.toArray())
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(recorder.events, [.at(100, .error(AvatarUnavailable()))])
        XCTAssertEqual(scheduler.pendingCount, 0)
    }

    func testAnEmptyUserListGivesAnEmptyArrayAtOnce() {
        let scheduler = TestScheduler()
        let (recorder, _) = scheduler.record(parallel([], scheduler: scheduler))
        XCTAssertEqual(recorder.events, [.at(0, .data([])), .at(0, .end)])
    }
}

/// A user's avatar fetch on virtual time: lands after the user's latency.
private func avatarFetch(
    of user: UsersWithAvatarsTests.User,
    scheduler: TestScheduler
) -> DataStream<UsersWithAvatarsTests.UserWithAvatar> {
    let attached = UsersWithAvatarsTests.UserWithAvatar(login: user.login, avatar: "\(user.login).png")
    return scheduler.coldStream([.at(user.avatarLatency, .data(attached)), .at(user.avatarLatency, .end)]).asDataStream()
}
