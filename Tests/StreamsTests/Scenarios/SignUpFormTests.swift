// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import XCTest
import Streams
import StreamsTesting

/// Sign-up form: the username is valid with at least 3 characters once typing
/// pauses for 0.8 s (repeats ignored); the passwords are valid when non-empty and
/// equal; the button is enabled when both are, and follows every keystroke.
final class SignUpFormTests: XCTestCase {
    private struct Form {
        let username: any StreamType<String>
        let password: any StreamType<String>
        let repeatedPassword: any StreamType<String>
        let scheduler: TestScheduler

        var usernameValid: DataStream<Bool> {
            username
                .debounce(.milliseconds(800), scheduler: scheduler)
                .uniqueTransition()
                .map { $0.count >= 3 }
        }

        var passwordsValid: DataStream<Bool> {
            DataStream.combineLatest(password, repeatedPassword).map { password, repeated in
                !password.isEmpty && password == repeated
            }
        }

        var buttonEnabled: DataStream<Bool> {
            DataStream.combineLatest(usernameValid, passwordsValid)
                .map { usernameValid, passwordsValid in usernameValid && passwordsValid }
                .startWith(false)
                .uniqueTransition()
        }
    }

    private func form(
        _ scheduler: TestScheduler,
        username: [Recorded<String>] = [],
        password: [Recorded<String>] = [],
        repeated: [Recorded<String>] = []
    ) -> Form {
        Form(
            username: scheduler.hotStream(username),
            password: scheduler.hotStream(password),
            repeatedPassword: scheduler.hotStream(repeated),
            scheduler: scheduler
        )
    }

    func testTheUsernameIsJudgedOnlyOnceTypingPausesForEightHundredMilliseconds() {
        let scheduler = TestScheduler()
        let form = form(scheduler, username: [.at(0, .data("b")), .at(300, .data("bo")), .at(600, .data("bob"))])
        let (recorder, _) = scheduler.record(form.usernameValid)
        scheduler.advance(to: .milliseconds(1_399))
        XCTAssertEqual(recorder.events, [])
        scheduler.advance(to: .milliseconds(1_400))
        XCTAssertEqual(recorder.events, [.at(1_400, .data(true))])
    }

    func testAUsernameShorterThanThreeCharactersIsInvalid() {
        let scheduler = TestScheduler()
        let form = form(scheduler, username: [.at(0, .data("bo")), .at(1_000, .data("bob"))])
        let (recorder, _) = scheduler.record(form.usernameValid)
        scheduler.advance(to: .seconds(3))
        XCTAssertEqual(recorder.events, [.at(800, .data(false)), .at(1_800, .data(true))])
    }

    func testRetypingTheSameUsernameDuringAPauseIsNotJudgedAgain() {
        let scheduler = TestScheduler()
        let form = form(scheduler, username: [.at(0, .data("bob")), .at(900, .data("bobx")), .at(1_000, .data("bob"))])
        let (recorder, _) = scheduler.record(form.usernameValid)
        scheduler.advance(to: .seconds(3))
        XCTAssertEqual(recorder.events, [.at(800, .data(true))])
    }

    func testPasswordsAreValidWhenNonEmptyAndEqual() {
        let scheduler = TestScheduler()
        let form = form(
            scheduler,
            password: [.at(0, .data("")), .at(200, .data("x")), .at(400, .data("xy"))],
            repeated: [.at(100, .data("")), .at(300, .data("x")), .at(500, .data("xy"))]
        )
        let (recorder, _) = scheduler.record(form.passwordsValid)
        scheduler.advance(to: .seconds(1))
        XCTAssertEqual(recorder.events, [
            .at(100, .data(false)), .at(200, .data(false)), .at(300, .data(true)),
            .at(400, .data(false)), .at(500, .data(true)),
        ])
    }

    func testTheButtonFollowsEveryKeystrokeSequence() {
        let scheduler = TestScheduler()
        let form = form(
            scheduler,
            username: [.at(0, .data("b")), .at(100, .data("bo")), .at(200, .data("bob")), .at(1_500, .data("bo"))],
            password: [.at(300, .data("x")), .at(1_200, .data("xy"))],
            repeated: [.at(500, .data("x")), .at(1_400, .data("xy"))]
        )
        let (recorder, _) = scheduler.record(form.buttonEnabled)
        scheduler.advance(to: .seconds(4))
        XCTAssertEqual(recorder.events, [
            .at(0, .data(false)),
            .at(1_000, .data(true)),   // "bob" settled at 1.0 s; passwords already equal since 0.5 s
            .at(1_200, .data(false)),  // password changed, repetition not yet
            .at(1_400, .data(true)),   // repetition caught up
            .at(2_300, .data(false)),  // "bo" settled: too short
        ])
    }
}
