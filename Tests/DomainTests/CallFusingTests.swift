// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTP
import InMemoryTracing
import MetricsTestKit
import Streams
import StreamsTesting
import Synchronization
import Tracing
import TracingTestSupport
import XCTest
@testable import Domain

/// A call with its stages fused (`GitHubClient.CallFusing.fused`, `UpstreamCallRun`) runs as its
/// slow twin, the operators' composition (`.operators`), in virtual time: the same marbles
/// downstream, each attempt subscribed and disposed at the same instants, the same metrics and
/// the same pipeline events; a traced call, the same CLIENT spans (names, kinds, parents,
/// attributes, retry events, status) and the same context seen by the transport at each request.
final class CallFusingTests: XCTestCase {
    /// Answers each request with the next of its marble diagrams (`-` 10 ms; `a` 200, `s` 503,
    /// `t` 429 asking for a 1 s wait, `n` 404, `b` 302 to /b, `#` a connection reset); a request
    /// past the last diagram never answers. Keeps each answer's subscriptions, and the span
    /// current as each request was sent (`ServiceContext.current`, as a library below would read it),
    /// and the span each request's `traceparent` names. Its answers come in no context.
    final class MarbleTransport: UpstreamTransport {
        static let values: [Character: UpstreamResponse] = [
            "a": UpstreamResponse(status: 200, body: Array("{}".utf8)),
            "s": UpstreamResponse(status: 503),
            "t": UpstreamResponse(status: 429, headers: ["retry-after": "1"]),
            "n": UpstreamResponse(status: 404),
            "b": UpstreamResponse(status: 302, headers: ["location": "/b"]),
        ]
        private let scheduler: TestScheduler
        private let state: Mutex<(diagrams: [String], answers: [ColdStream<UpstreamResponse>], paths: [String], spanIDs: [String?], sentIDs: [String?])>
        let readsServiceContext: Bool

        /// `readsContext`: what it says of itself (`UpstreamTransport.readsServiceContext`).
        init(_ diagrams: [String], scheduler: TestScheduler, readsContext: Bool = true) {
            self.scheduler = scheduler
            readsServiceContext = readsContext
            state = Mutex((diagrams, [], [], [], []))
        }

        /// The id of the span current as each request was sent; nil where none was.
        var currentSpanIDs: [String?] { state.withLock { $0.spanIDs } }

        /// The id of the span each request's `traceparent` named; nil where it sent none.
        var sentSpanIDs: [String?] { state.withLock { $0.sentIDs } }

        /// Each request's path, then the subscriptions to its answer (`^` and `!` as marbles).
        var requests: [String] {
            state.withLock { state in zip(state.paths, state.answers).map { "\($0) \($1.subscriptions)" } }
        }

        func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse> {
            let spanID = ServiceContext.current?.inMemorySpanContext?.spanID
            var fields = HTTPHeaders()
            request.span?.inject(into: &fields)
            let sentID = fields["traceparent"].flatMap(TraceIdentity.init(traceparent:))?.spanID
            let answer = state.withLock { state in
                state.spanIDs.append(spanID)
                state.sentIDs.append(sentID)
                let diagram = state.diagrams.isEmpty ? "-" : state.diagrams.removeFirst()
                let answer = scheduler.coldStream(diagram, values: Self.values, error: UpstreamError.connection("reset"))
                state.answers.append(answer)
                state.paths.append(request.url.path)
                return answer
            }
            // Answered as a socket's thread would: in no context of its own (the answer's timers
            // keep none), so what a retry runs in is what the call binds, not what it inherits.
            return DataStream { watcher in ContextPropagation.withoutCarrying { answer.asDataStream().watch(using: watcher) } }
        }
    }

    struct Run: Equatable {
        var diagram: String
        var failure: UpstreamFailure?
        var requests: [String]
        var outcomes: [String: Int64]
        var retries: Int64
        var events: [String]
        /// The spans ended, in the order they ended (`SpanSummary`); empty untraced.
        var spans: [String] = []
        /// The span current as each request was sent, named as in `spans`; empty untraced.
        var contexts: [String] = []
        /// The span each request's `traceparent` named, as in `spans`; empty untraced.
        var sent: [String] = []
    }

    static let retry = RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(30), jitter: 0)

    /// The call's run: subscribed at 0, disposed at `disposed` ms unless it ended before; with
    /// `tracer`, subscribed in the context of a SERVER span of its (`SpanSummary`'s `parent`).
    func run(
        _ answers: [String], _ fusing: GitHubClient.CallFusing, disposed: Int = 2_000, retry: RetryPolicy = retry, tracer: W3CTestTracer? = nil,
        transportReadsContext: Bool = true
    ) throws -> Run {
        try run(answers, fusing, disposed: disposed, retry: retry, tracer: tracer, transportReadsContext: transportReadsContext, symbol: { "\($0.status)" }) { client, trace in
            client.get(URL(string: "http://demo.test/users")!, stage: .users, trace: trace)
        }
    }

    /// The run of the stream `make` makes of a client over the transport answering `answers`.
    func run<Element: Sendable>(
        _ answers: [String], _ fusing: GitHubClient.CallFusing, disposed: Int, retry: RetryPolicy, tracer: W3CTestTracer? = nil, transportReadsContext: Bool = true,
        symbol: (Element) -> String, _ make: @escaping @Sendable (GitHubClient, PipelineTrace) -> DataStream<Element>
    ) throws -> Run {
        let parent = tracer?.startSpan("parent", context: .topLevel, ofKind: .server)
        // The client, its transport and scheduler are gone when the spans are read: a span its
        // disposed call let go of has ended by then (`UpstreamSpan`'s deinit).
        var (run, currentSpanIDs, sentSpanIDs) = try exercise(
            answers, fusing, disposed: disposed, retry: retry, tracer: tracer, transportReadsContext: transportReadsContext, parent: parent?.context, symbol: symbol, make)
        if let tracer, let parent {
            let summary = SpanSummary(tracer.finishedSpans, parent: parent.spanContext)
            run.spans = summary.spans
            run.contexts = currentSpanIDs.map(summary.name)
            run.sent = sentSpanIDs.map(summary.name)
        }
        return run
    }

    /// The run without its spans, the span current at each request and the one it sent; subscribed in `parent`'s context.
    private func exercise<Element: Sendable>(
        _ answers: [String], _ fusing: GitHubClient.CallFusing, disposed: Int, retry: RetryPolicy, tracer: W3CTestTracer?, transportReadsContext: Bool,
        parent: ServiceContext?, symbol: (Element) -> String, _ make: @escaping @Sendable (GitHubClient, PipelineTrace) -> DataStream<Element>
    ) throws -> (Run, [String?], [String?]) {
        let scheduler = TestScheduler()
        let transport = MarbleTransport(answers, scheduler: scheduler, readsContext: transportReadsContext)
        let metrics = TestMetrics()
        let client = GitHubClient(
            configuration: .init(baseURL: URL(string: "http://demo.test")!, timeout: .milliseconds(100), retry: retry, deadline: .seconds(1), singleFlight: false),
            transport: transport, scheduler: scheduler, metrics: UpstreamMetrics(factory: metrics), tracer: tracer, deadlineKeeping: .bounds, callFusing: fusing)
        let hub = PipelineEventHub()
        let trace = PipelineTrace(hub: hub, pipeline: "users", requestId: "r1")
        let recorder = scheduler.start(created: 0, subscribed: 0, disposed: disposed) {
            parent.map { make(client, trace).inContext($0) } ?? make(client, trace)
        }
        var outcomes: [String: Int64] = [:]
        for outcome in UpstreamMetrics.Outcome.allCases {
            outcomes[outcome.rawValue] = try metrics.expectCounter(UpstreamMetrics.requestsName, [("outcome", outcome.rawValue)]).totalValue
        }
        let events = hub.recorded(after: 0).compactMap { delivery -> String? in
            guard case .event(let event) = delivery else { return nil }
            return "\(event.kind) \(event.stage) \(event.detail ?? "")"
        }
        let run = Run(
            diagram: recorder.diagram(symbol: symbol), failure: recorder.events.last?.event.error as? UpstreamFailure,
            requests: transport.requests, outcomes: outcomes, retries: try metrics.expectCounter(UpstreamMetrics.retriesName).totalValue, events: events)
        // The jobs cancelled by the disposal, which hold the stages (and the scheduler, through
        // the client) until they are dropped.
        scheduler.run()
        return (run, transport.currentSpanIDs, transport.sentSpanIDs)
    }

    /// Ended spans described without their random ids, times and the order of their attributes:
    /// each span and parent named by where it ended (`s0`, `s1`, …; the run's parent is `parent`).
    struct SpanSummary {
        let spans: [String]
        private let names: [String: String]

        init(_ finished: [FinishedInMemorySpan], parent: InMemorySpanContext) {
            var names = [parent.spanID: "parent"]
            for (index, span) in finished.enumerated() { names[span.spanID] = "s\(index)" }
            self.names = names
            spans = finished.map { span in
                let trace = span.traceID == parent.traceID ? "" : " other trace"
                let parentName = span.parentSpanID.map { names[$0] ?? "unknown" } ?? "none"
                let events = span.events.map { "\($0.name)(\(Self.describe($0.attributes)))" }
                let status = span.status.map { " status=\($0.code) \($0.message ?? "")" } ?? ""
                return "\(span.operationName) \(span.kind) parent=\(parentName)\(trace) [\(Self.describe(span.attributes))] events=\(events)\(status) errors=\(span.errors.count)"
            }
        }

        /// A span's name here, `none` for no span.
        func name(_ spanID: String?) -> String {
            spanID.map { names[$0] ?? "unknown" } ?? "none"
        }

        static func describe(_ attributes: SpanAttributes) -> String {
            var pairs: [String] = []
            attributes.forEach { name, _ in pairs.append("\(name)=\(attributes.text(name) ?? "")") }
            return pairs.sorted().joined(separator: " ")
        }
    }

    func assertTwinsAgree(
        _ answers: [String], disposed: Int = 2_000, retry: RetryPolicy = retry, traced: Bool = false, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Run {
        let fused = try run(answers, .fused, disposed: disposed, retry: retry, tracer: traced ? W3CTestTracer() : nil)
        let composed = try run(answers, .operators, disposed: disposed, retry: retry, tracer: traced ? W3CTestTracer() : nil)
        XCTAssertEqual(fused, composed, file: file, line: line)
        if traced { XCTAssertFalse(fused.spans.isEmpty, "no span ended", file: file, line: line) }
        return fused
    }

    /// As `assertTwinsAgree`, for one user's avatar outcome under `policy` (its fetch, trace and recovery).
    func assertAvatarTwinsAgree(_ answers: [String], policy: UsersQuery.AvatarErrorPolicy, disposed: Int = 2_000, file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        let user = AvatarAttachment(GitHubUser(login: "ada1", id: 1, avatarUrl: "http://demo.test/ada1.png"), index: 0, query: UsersQuery(onAvatarError: policy))
        let runs = try [GitHubClient.CallFusing.fused, .operators].map { fusing in
            try run(answers, fusing, disposed: disposed, retry: RetryPolicy(maxRetries: 1, baseDelay: .milliseconds(30), jitter: 0), symbol: { "\($0.user?.avatar.bytes ?? -1)" }) { client, trace in
                UsersWithAvatarsPipeline(client: client).avatarOutcome(user, trace: trace)
            }
        }
        XCTAssertEqual(runs[0], runs[1], file: file, line: line)
        return runs[0]
    }

    func testAnAnswerAtOnceIsTheOperatorsAnswer() throws {
        let fused = try assertTwinsAgree(["--a|"])
        XCTAssertEqual(fused.diagram, "--200|")
        XCTAssertEqual(fused.requests, ["/users [(0 ms, 30 ms)]"])
    }

    func testRetriesAfterFailedStatusesAndResetsAreTheOperatorsRetries() throws {
        let fused = try assertTwinsAgree(["-s|", "-#", "--a|"])
        // Waits of 30 and 60 ms after the answers at 10 and 50 ms.
        XCTAssertEqual(fused.diagram, "-------------200|")
        XCTAssertEqual(fused.retries, 2)
    }

    func testAWaitTheUpstreamAskedForIsTheOperatorsWait() throws {
        _ = try assertTwinsAgree(["-t|", "-a|"])
    }

    func testAStatusNotRetriedFailsAsTheOperatorsFail() throws {
        let fused = try assertTwinsAgree(["-n|"])
        XCTAssertEqual(fused.failure?.error, .status(404, retryAfterSeconds: nil))
    }

    func testRetriesSpentFailAsTheOperatorsFail() throws {
        let fused = try assertTwinsAgree(["-s|", "-s|", "-s|", "-s|"])
        XCTAssertEqual(fused.failure?.retries, 3)
    }

    func testAttemptsTimedOutAndCutByTheDeadlineAreTheOperatorsAttempts() throws {
        let fused = try assertTwinsAgree([], retry: RetryPolicy(maxRetries: 20, baseDelay: .milliseconds(30), jitter: 0))
        XCTAssertEqual(fused.failure?.error, .deadlineExceeded(after: .seconds(1)))
    }

    func testARedirectFollowedIsTheOperatorsRedirect() throws {
        let fused = try assertTwinsAgree(["-b|", "-s|", "--a|"])
        XCTAssertEqual(fused.requests.map { $0.split(separator: " ")[0] }, ["/users", "/b", "/b"])
    }

    func testDisposedMidAttemptIsDisposedAsTheOperatorsAre() throws {
        let fused = try assertTwinsAgree(["-s|", "-----a|"], disposed: 60)
        XCTAssertEqual(fused.diagram, "")
        XCTAssertEqual(fused.outcomes["cancelled"], 1)
    }

    func testDisposedMidWaitIsDisposedAsTheOperatorsAre() throws {
        let fused = try assertTwinsAgree(["-s|", "-a|"], disposed: 20)
        XCTAssertEqual(fused.requests.count, 1)
    }

    func testAFetchedAvatarIsTheOperatorsOutcomeAndTrace() throws {
        let fused = try assertAvatarTwinsAgree(["--a|"], policy: .fail)
        XCTAssertEqual(fused.events.map { $0.prefix(9) }, ["subscribe", "data avat", "end avata"])
    }

    func testAFailedAvatarRecoveredUnderEachPolicyIsTheOperatorsRecovery() throws {
        for policy in UsersQuery.AvatarErrorPolicy.allCases {
            let fused = try assertAvatarTwinsAgree(["-s|", "-n|"], policy: policy)
            XCTAssertEqual(fused.events.last?.prefix(12), "error avatar", "\(policy)")
        }
    }

    func testARedirectedAvatarIsTheOperatorsOutcome() throws {
        let fused = try assertAvatarTwinsAgree(["-b|", "--a|"], policy: .fail)
        XCTAssertEqual(fused.requests.map { $0.split(separator: " ")[0] }, ["/ada1.png", "/b"])
        XCTAssertEqual(fused.events.map { $0.prefix(9) }, ["subscribe", "data avat", "end avata"])
    }

    func testAnAvatarDisposedMidFetchIsTheOperatorsDisposal() throws {
        let fused = try assertAvatarTwinsAgree(["-----a|"], policy: .placeholder, disposed: 20)
        XCTAssertEqual(fused.events.last, "dispose avatar ")
    }

    // A traced call: its CLIENT span, ended as the composition ends it, and its attempts in the span's context.

    func testATracedAnswerIsTheOperatorsSpan() throws {
        let fused = try assertTwinsAgree(["--a|"], traced: true)
        XCTAssertEqual(fused.spans.count, 1)
        XCTAssertTrue(fused.spans[0].hasPrefix("GET client parent=parent ["), fused.spans[0])
        XCTAssertTrue(fused.spans[0].contains("http.response.status_code=200"), fused.spans[0])
    }

    func testTracedRetriesAfter503AreTheOperatorsRetryEvents() throws {
        let fused = try assertTwinsAgree(["-s|", "-s|", "--a|"], traced: true)
        XCTAssertEqual(fused.diagram, "-------------200|")
        XCTAssertTrue(fused.spans[0].contains("http.request.resend_count=2"), fused.spans[0])
        XCTAssertTrue(fused.spans[0].contains("streamservice.retry.delay_ms=60"), fused.spans[0])
    }

    func testATracedRedirectsHopIsASiblingSpanInTheCallersContext() throws {
        let fused = try assertTwinsAgree(["-b|", "--a|"], traced: true)
        XCTAssertEqual(fused.spans.map { $0.prefix(25) }, ["GET client parent=parent ", "GET client parent=parent "])
        XCTAssertTrue(fused.spans[0].contains("http.response.status_code=302"), fused.spans[0])
        XCTAssertEqual(fused.contexts, ["s0", "s1"])
    }

    func testATracedFinalFailureIsTheOperatorsFailedSpan() throws {
        let fused = try assertTwinsAgree(["-s|", "-s|", "-s|", "-s|"], traced: true)
        XCTAssertTrue(fused.spans[0].contains("error.type=503"), fused.spans[0])
        XCTAssertTrue(fused.spans[0].contains("status=error"), fused.spans[0])
    }

    func testATracedCallCutByTheDeadlineIsTheOperatorsDeadlineSpan() throws {
        let fused = try assertTwinsAgree([], retry: RetryPolicy(maxRetries: 20, baseDelay: .milliseconds(30), jitter: 0), traced: true)
        XCTAssertTrue(fused.spans[0].contains("error.type=deadline_exceeded"), fused.spans[0])
    }

    func testATracedCallDisposedMidAttemptEndsItsSpanCancelledAsTheOperatorsDo() throws {
        let fused = try assertTwinsAgree(["-s|", "-----a|"], disposed: 60, traced: true)
        XCTAssertEqual(fused.spans.count, 1)
        XCTAssertTrue(fused.spans[0].contains("streamservice.upstream.cancelled=true"), fused.spans[0])
    }

    func testTheTransportSeesTheClientSpanDuringAnAttemptAndARetry() throws {
        let fused = try assertTwinsAgree(["-s|", "--a|"], traced: true)
        XCTAssertEqual(fused.contexts, ["s0", "s0"])
    }

    // A transport that reads no `ServiceContext` (`UpstreamTransport.readsServiceContext` false, as
    // `HTTPUpstreamTransport`): the fused call binds nothing around its attempts, which still send
    // their CLIENT span; all else as with a transport that reads it.

    func testAContextBlindTransportsAttemptsAreBoundToNothingAndSendTheirClientSpan() throws {
        let blind = try run(["-s|", "--a|"], .fused, tracer: W3CTestTracer(), transportReadsContext: false)
        XCTAssertEqual(blind.sent, ["s0", "s0"])
        // The first attempt in the caller's context, as it is subscribed; the retry in the one its
        // timer was set in (none: the failed answer came in none).
        XCTAssertEqual(blind.contexts, ["parent", "none"])
    }

    func testAContextBlindTransportsCallIsTheBoundCallSaveTheContextSeen() throws {
        for (answers, disposed) in [(["-s|", "-#", "--a|"], 2_000), (["-b|", "--a|"], 2_000), (["-s|", "-s|", "-s|", "-s|"], 2_000), (["-s|", "-----a|"], 60)] {
            var blind = try run(answers, .fused, disposed: disposed, tracer: W3CTestTracer(), transportReadsContext: false)
            let bound = try run(answers, .fused, disposed: disposed, tracer: W3CTestTracer())
            XCTAssertFalse(blind.spans.isEmpty, "\(answers)")
            XCTAssertEqual(bound.sent, bound.contexts, "\(answers)")
            blind.contexts = bound.contexts
            XCTAssertEqual(blind, bound, "\(answers)")
        }
    }
}
