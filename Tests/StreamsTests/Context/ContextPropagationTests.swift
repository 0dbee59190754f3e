// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import Instrumentation
import StreamServiceConcurrency
import Streams
import XCTest

/// The `ServiceContext` travels with a subscription, not with a thread: whatever thread delivers
/// the event that makes an operator subscribe (an inner stream, a retry, a timer's work), the
/// subscription is made in the context of the subscriber it is made for.
final class ContextPropagationTests: XCTestCase {
    private enum RunName: ServiceContextKey {
        typealias Value = String
    }

    private static var current: String { ServiceContext.current?[RunName.self] ?? "none" }

    private static func context(_ name: String) -> ServiceContext {
        var context = ServiceContext.topLevel
        context[RunName.self] = name
        return context
    }

    /// What a stream subscribed to in `name`'s context delivers, each value with the context
    /// its producer saw.
    private final class Recording: Sendable {
        let values = StreamServiceConcurrency.Locked<[String]>([])
        let finished = XCTestExpectation(description: "the stream ended")

        /// `carried` false: subscribed inside `ContextPropagation.withoutCarrying`.
        func watch<S: StreamType>(_ stream: S, in name: String, carried: Bool = true) -> Disposable where S.Element == String {
            let watcher = Watcher<String> { [self] (event: Event<String>) in
                switch event {
                case .data(let value): values.withLock { $0.append(value) }
                case .end, .error: finished.fulfill()
                }
            }
            return ServiceContext.withValue(context(name)) {
                carried ? stream.watch(using: watcher) : ContextPropagation.withoutCarrying { stream.watch(using: watcher) }
            }
        }
    }

    /// The context current where a stream is subscribed, as its value.
    private static var contextAtSubscription: DataStream<String> { .deferred { .just(current) } }

    override func setUp() {
        super.setUp()
        ContextPropagation.enable()
    }

    func testARedirectsInnerStreamIsSubscribedInTheSubscribersContextWhenTheValueComesFromAnotherThread() {
        let source = Streamer<Int>()
        let recording = Recording()
        let subscription = recording.watch(source.redirect { _ in Self.contextAtSubscription }, in: "run-a")
        defer { subscription.dispose() }
        DispatchQueue(label: "no context").sync {
            XCTAssertEqual(Self.current, "none")
            source.data(1)
            source.end()
        }
        wait(for: [recording.finished], timeout: 5)
        XCTAssertEqual(recording.values.withLock { $0 }, ["run-a"])
    }

    func testAfterObserveOnTheWatcherGetsEventsInTheSubscribersContextOnTheSchedulersThread() {
        let source = Streamer<Int>()
        let recording = Recording()
        let scheduler = QueueScheduler(label: "observe-on")
        let subscription = recording.watch(source.observe(on: scheduler).map { _ in Self.current }, in: "run-b")
        defer { subscription.dispose() }
        DispatchQueue(label: "no context").sync {
            source.data(1)
            source.data(2)
            source.end()
        }
        wait(for: [recording.finished], timeout: 5)
        XCTAssertEqual(recording.values.withLock { $0 }, ["run-b", "run-b"])
    }

    func testWatchOnSubscribesOnTheSchedulerInTheSubscribersContext() {
        let recording = Recording()
        let subscription = recording.watch(Self.contextAtSubscription.watch(on: QueueScheduler(label: "watch-on")), in: "run-c")
        defer { subscription.dispose() }
        wait(for: [recording.finished], timeout: 5)
        XCTAssertEqual(recording.values.withLock { $0 }, ["run-c"])
    }

    func testATimersWorkOnTheTestSchedulerRunsWithoutTheContextOfASubscriptionMadeWithoutCarrying() {
        let scheduler = TestScheduler()
        let recording = Recording()
        let subscription = recording.watch(DataStream<Int>.timer(.seconds(1), scheduler: scheduler).map { _ in Self.current }, in: "run-d", carried: false)
        defer { subscription.dispose() }
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(recording.values.withLock { $0 }, ["none"])
    }

    func testARedirectsInnerStreamIsSubscribedWithoutTheContextOfASubscriptionMadeWithoutCarrying() {
        let source = Streamer<Int>()
        let recording = Recording()
        let subscription = recording.watch(source.redirect { _ in Self.contextAtSubscription }, in: "run-a", carried: false)
        defer { subscription.dispose() }
        DispatchQueue(label: "no context").sync { source.data(1) }
        XCTAssertEqual(recording.values.withLock { $0 }, ["none"])
    }

    func testWithoutCarryingAStreamSubscribedThereSeesTheContextSynchronously() {
        let recording = Recording()
        let subscription = recording.watch(Self.contextAtSubscription, in: "run-s", carried: false)
        defer { subscription.dispose() }
        XCTAssertEqual(recording.values.withLock { $0 }, ["run-s"])
    }

    func testATimersWorkOnTheTestSchedulerRunsInTheSubscribersContextWhoeverAdvancesTime() {
        let scheduler = TestScheduler()
        let recording = Recording()
        let subscription = recording.watch(DataStream<Int>.timer(.seconds(1), scheduler: scheduler).map { _ in Self.current }, in: "run-d")
        defer { subscription.dispose() }
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(recording.values.withLock { $0 }, ["run-d"])
    }

    func testARetryAfterItsBackOffSubscribesTheNextAttemptInTheSubscribersContext() {
        let scheduler = TestScheduler()
        let attempts = StreamServiceConcurrency.Locked(0)
        let attempt = DataStream<String>.deferred {
            let number = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            // The first attempt fails a second later, from the scheduler's work; the second reports its context.
            guard number > 1 else {
                return DataStream<Int>.timer(.seconds(1), scheduler: scheduler).redirect { _ in DataStream<String>.just(error: CancellationError()) }
            }
            return .just(Self.current)
        }
        let backoff = RetryBackoff(initialDelay: .seconds(2), jitter: 0)
        let recording = Recording()
        let subscription = recording.watch(attempt.retry(1, backoff: backoff, scheduler: scheduler), in: "run-e")
        defer { subscription.dispose() }
        scheduler.advance(by: .seconds(3))
        XCTAssertEqual(attempts.withLock { $0 }, 2)
        XCTAssertEqual(recording.values.withLock { $0 }, ["run-e"])
    }

    func testZipsSourcesThatSubscribeLaterDoSoInTheSubscribersContext() {
        let scheduler = TestScheduler()
        let later = DataStream<Int>.timer(.seconds(1), scheduler: scheduler).redirect { _ in Self.contextAtSubscription }
        let other = Streamer<Int>()
        let recording = Recording()
        let zipped = DataStream.zip(later, other.redirect { _ in Self.contextAtSubscription }).map { "\($0)+\($1)" }
        let subscription = recording.watch(zipped, in: "run-f")
        defer { subscription.dispose() }
        scheduler.advance(by: .seconds(1))
        DispatchQueue(label: "no context").sync { other.data(1) }
        XCTAssertEqual(recording.values.withLock { $0 }, ["run-f+run-f"])
    }

    func testTwoSubscriptionsOfOneStreamKeepTheirOwnContexts() {
        let source = Streamer<Int>()
        let stream = source.redirect { _ in Self.contextAtSubscription }
        let first = Recording()
        let second = Recording()
        let subscriptions = [first.watch(stream, in: "run-g1"), second.watch(stream, in: "run-g2")]
        defer { subscriptions.forEach { $0.dispose() } }
        DispatchQueue(label: "no context").sync { source.data(1) }
        XCTAssertEqual(first.values.withLock { $0 }, ["run-g1"])
        XCTAssertEqual(second.values.withLock { $0 }, ["run-g2"])
    }

    func testInContextSubscribesItsUpstreamInItsContextWhateverTheSubscribers() {
        let source = Streamer<Int>()
        let recording = Recording()
        let stream = source.redirect { _ in Self.contextAtSubscription }.inContext(Self.context("span-h"))
        let subscription = recording.watch(stream, in: "run-h")
        defer { subscription.dispose() }
        DispatchQueue(label: "no context").sync { source.data(1) }
        XCTAssertEqual(recording.values.withLock { $0 }, ["span-h"])
    }

    /// What `read` gives in the setup of a `DataStream.holding` subscription (its contexts named,
    /// joined by `/`), subscribed without a context, in `run`'s, and in `run`'s without carrying.
    private static func readInHoldingSetups(in run: String, _ read: @escaping @Sendable (Disposable) -> [ServiceContext?]) -> [String] {
        let seen = StreamServiceConcurrency.Locked<[String]>([])
        let stream = DataStream<Int>.holding { downstream, subscription in
            let names = read(subscription).map { $0?[RunName.self] ?? "none" }
            seen.withLock { $0.append(names.joined(separator: "/")) }
            downstream.end()
        }
        let watcher = { Watcher<Int> { (_: Event<Int>) in } }
        stream.watch(using: watcher())
        ServiceContext.withValue(context(run)) {
            stream.watch(using: watcher())
            ContextPropagation.withoutCarrying { _ = stream.watch(using: watcher()) }
        }
        return seen.withLock { $0 }
    }

    func testWhatAHoldingSetupCarriesIsWhatCarriedGivesWhereverItIsSubscribed() {
        let span = Self.context("span-i")
        let seen = Self.readInHoldingSetups(in: "run-i") { [ContextPropagation.carried(span, settingUp: $0), ContextPropagation.carried(span)] }
        XCTAssertEqual(seen, ["span-i/span-i", "span-i/span-i", "none/none"])
    }

    func testTheContextCurrentInAHoldingSetupIsWhatItsSubscriptionGivesWhereverItIsSubscribed() {
        let seen = Self.readInHoldingSetups(in: "run-j") { [ContextPropagation.current(settingUp: $0), ServiceContext.current] }
        XCTAssertEqual(seen, ["none/none", "run-j/run-j", "run-j/run-j"])
    }

    func testAStreamSubscribedWithoutAContextLeavesTheProducersThreadWithoutOne() {
        let source = Streamer<Int>()
        let values = StreamServiceConcurrency.Locked<[String]>([])
        let subscription = source.redirect { _ in Self.contextAtSubscription }.watch(using: Watcher<String> { (event: Event<String>) in
            if case .data(let value) = event { values.withLock { $0.append(value) } }
        })
        defer { subscription.dispose() }
        DispatchQueue(label: "no context").sync { source.data(1) }
        XCTAssertEqual(values.withLock { $0 }, ["none"])
    }

    // Whether contexts are carried, known without the task-local until a scope withheld one
    // (`carriesNow`), is what the task-local says (`carries`, its slow twin).

    func testWhetherContextsAreCarriedIsWhatTheTaskLocalSaysOutsideAndInsideWithoutCarrying() {
        var answers = [ContextPropagation.carriesBothWays]
        ContextPropagation.withoutCarrying { answers.append(ContextPropagation.carriesBothWays) }
        answers.append(ContextPropagation.carriesBothWays)
        XCTAssertEqual(answers.map { "\($0.known)/\($0.read)" }, ["true/true", "false/false", "true/true"])
    }

    /// `ContextPropagation.current`'s read through the runtime and the property's own `get()`, as `read/property`.
    private static var currentBothWays: String {
        "\(ContextPropagation.current?[RunName.self] ?? "none")/\(current)"
    }

    func testTheContextReadThroughTheRuntimeIsTheCurrentOneBoundNestedAndNot() {
        var answers = [Self.currentBothWays]
        ServiceContext.withValue(Self.context("outer")) {
            answers.append(Self.currentBothWays)
            ServiceContext.withValue(Self.context("inner")) { answers.append(Self.currentBothWays) }
            ServiceContext.withValue(nil) { answers.append(Self.currentBothWays) }
            answers.append(Self.currentBothWays)
        }
        answers.append(Self.currentBothWays)
        XCTAssertEqual(answers, ["none/none", "outer/outer", "inner/inner", "none/none", "outer/outer", "none/none"])
    }

    func testTheContextReadThroughTheRuntimeInATaskIsTheOneItInherited() async {
        let task = ServiceContext.withValue(Self.context("task")) { Task { Self.currentBothWays } }
        let inherited = await task.value
        XCTAssertEqual(inherited, "task/task")
        let unboundTask = Task { ContextPropagationTests.currentBothWays }
        let unbound = await unboundTask.value
        XCTAssertEqual(unbound, "none/none")
    }

    func testATaskBegunInsideWithoutCarryingCarriesNothingAfterTheScopeEnded() async {
        let task = ContextPropagation.withoutCarrying { Task { ContextPropagation.carriesBothWays } }
        let answer = await task.value
        XCTAssertEqual("\(answer.known)/\(answer.read)", "false/false")
    }
}
