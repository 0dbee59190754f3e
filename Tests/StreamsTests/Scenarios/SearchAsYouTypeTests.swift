// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization
import XCTest
import Streams
import StreamsTesting

/// Search as you type: the query box's text, debounced 300 ms, without repeats,
/// switched to the latest search, which is retried 3 times, starts with an empty
/// list and shows an empty list when it finally fails.
final class SearchAsYouTypeTests: XCTestCase {
    private func results(
        for query: some StreamType<String>,
        using service: SearchService,
        scheduler: TestScheduler
    ) -> DataStream<[String]> {
        query
            .debounce(.milliseconds(300), scheduler: scheduler)
            .uniqueTransition()
            .redirectLatest { text -> DataStream<[String]> in
                guard !text.isEmpty else { return .just([]) }
                return service.search(text).retry(3).startWith([]).recover([])
            }
    }

    func testTypingQuicklySearchesOnlyForTheTextLeftAfterThePause() {
        let scheduler = TestScheduler()
        let service = SearchService(scheduler: scheduler)
        let query = scheduler.hotStream([
            .at(0, .data("s")), .at(100, .data("sw")), .at(200, .data("swi")), .at(300, .data("swif")), .at(400, .data("swift")),
        ])
        let (recorder, _) = scheduler.record(results(for: query, using: service, scheduler: scheduler))
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(service.requests, ["swift"])
        XCTAssertEqual(recorder.events, [.at(700, .data([])), .at(800, .data(["swift", "swiftui"]))])
    }

    func testAnEmptyQueryGivesAnEmptyListWithoutSearching() {
        let scheduler = TestScheduler()
        let service = SearchService(scheduler: scheduler)
        let query = scheduler.hotStream([.at(0, .data("sw")), .at(1_000, .data(""))])
        let (recorder, _) = scheduler.record(results(for: query, using: service, scheduler: scheduler))
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(service.requests, ["sw"])
        XCTAssertEqual(recorder.events, [
            .at(300, .data([])), .at(400, .data(["swift", "swiftui", "switch"])), .at(1_300, .data([])),
        ])
    }

    func testAStaleResultNeverArrivesAfterANewerQuery() {
        let scheduler = TestScheduler()
        let service = SearchService(scheduler: scheduler, latency: ["sw": 1_000])
        let query = scheduler.hotStream([.at(0, .data("sw")), .at(400, .data("swift"))])
        let (recorder, _) = scheduler.record(results(for: query, using: service, scheduler: scheduler))
        scheduler.advance(to: .seconds(3))
        XCTAssertEqual(recorder.events, [.at(300, .data([])), .at(700, .data([])), .at(800, .data(["swift", "swiftui"]))])
        XCTAssertEqual(service.cancelled, ["sw"])
    }

    func testTheSameTextAfterAPauseDoesNotSearchAgain() {
        let scheduler = TestScheduler()
        let service = SearchService(scheduler: scheduler)
        let query = scheduler.hotStream([.at(0, .data("sw")), .at(400, .data("swi")), .at(500, .data("sw"))])
        let (recorder, _) = scheduler.record(results(for: query, using: service, scheduler: scheduler))
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(service.requests, ["sw"])
        XCTAssertEqual(recorder.values, [[], ["swift", "swiftui", "switch"]])
    }

    func testAFlakySearchIsRetriedUntilItAnswers() {
        let scheduler = TestScheduler()
        let service = SearchService(scheduler: scheduler, failuresBeforeAnswer: ["swift": 3])
        let query = scheduler.hotStream([.at(0, .data("swift"))])
        let (recorder, _) = scheduler.record(results(for: query, using: service, scheduler: scheduler))
        scheduler.advance(to: .seconds(2))
        XCTAssertEqual(service.requests, ["swift", "swift", "swift", "swift"])
        XCTAssertEqual(recorder.events, [.at(300, .data([])), .at(700, .data(["swift", "swiftui"]))])
    }

    func testASearchFailingEveryRetryShowsAnEmptyListAndTheBoxKeepsWorking() {
        let scheduler = TestScheduler()
        let service = SearchService(scheduler: scheduler, failuresBeforeAnswer: ["swift": 4])
        let query = scheduler.hotStream([.at(0, .data("swift")), .at(1_000, .data("sw"))])
        let (recorder, _) = scheduler.record(results(for: query, using: service, scheduler: scheduler))
        scheduler.advance(to: .seconds(3))
        XCTAssertEqual(service.requests, Array(repeating: "swift", count: 4) + ["sw"])
        XCTAssertEqual(recorder.events, [
            .at(300, .data([])), .at(700, .data([])),
            .at(1_300, .data([])), .at(1_400, .data(["swift", "swiftui", "switch"])),
        ])
    }
}

/// A search backend on virtual time: answers after a latency (100 ms unless set per
/// query), failing the first attempts of a query if asked to, and keeps a log of
/// requests and of the ones cancelled before they answered.
private final class SearchService: Sendable {
    struct Unavailable: Error {}

    private let scheduler: TestScheduler
    private let latency: [String: Int]
    private let failuresBeforeAnswer: [String: Int]
    private let words = ["swift", "swiftui", "switch", "apple"]
    private let log = Mutex<(requests: [String], cancelled: [String])>(([], []))

    init(scheduler: TestScheduler, latency: [String: Int] = [:], failuresBeforeAnswer: [String: Int] = [:]) {
        self.scheduler = scheduler
        self.latency = latency
        self.failuresBeforeAnswer = failuresBeforeAnswer
    }

    var requests: [String] { log.withLock { $0.requests } }
    var cancelled: [String] { log.withLock { $0.cancelled } }

    func search(_ text: String) -> DataStream<[String]> {
        DataStream { [self] watcher in
            let attempt = log.withLock { log -> Int in
                log.requests.append(text)
                return log.requests.filter { $0 == text }.count
            }
            let answered = Atomic<Bool>(false)
            let reply = scheduler.schedule(after: .milliseconds(latency[text] ?? 100)) { [words, failuresBeforeAnswer] in
                answered.store(true, ordering: .relaxed)
                if attempt <= failuresBeforeAnswer[text] ?? 0 {
                    watcher.error(Unavailable())
                } else {
                    watcher.data(words.filter { $0.hasPrefix(text) })
                    watcher.end()
                }
            }
            return Disposable { [self] in
                reply.dispose()
                if !answered.load(ordering: .relaxed) { log.withLock { $0.cancelled.append(text) } }
            }
        }
    }
}
