// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import Synchronization
@testable import Domain

/// Answers upstream requests from a script, for status sequences the demo upstream
/// cannot produce (429 with Retry-After, GitHub's rate-limit answers). Records requests.
final class ScriptedTransport: UpstreamTransport {
    enum Step: Sendable {
        case respond(UpstreamResponse)
        case fail(UpstreamError)
        case hang
    }

    private let state: Mutex<(steps: [Step], requests: [UpstreamRequest])>
    /// Where a request's `timeout` is kept, as `HTTPClient` keeps it (nil: not kept, a stage does).
    private let timers: TestScheduler?

    /// - Parameter timers: keep each request's `UpstreamRequest.timeout` on this scheduler: a
    ///   `hang` then fails with the timeout's failure when it passes.
    init(_ steps: [Step], keepingTimeoutsOn timers: TestScheduler? = nil) {
        state = Mutex((steps, []))
        self.timers = timers
    }

    var requests: [UpstreamRequest] { state.withLock { $0.requests } }

    var keepsTimeouts: Bool { timers != nil }

    func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse> {
        DataStream { watcher in
            let step = self.state.withLock { state -> Step in
                state.requests.append(request)
                return state.steps.isEmpty ? .hang : state.steps.removeFirst()
            }
            switch step {
            case .respond(let response):
                watcher.data(response)
                watcher.end()
            case .fail(let error):
                watcher.error(error)
            case .hang:
                if let timers = self.timers, let timeout = request.timeout {
                    return timers.schedule(after: timeout.after) { watcher.error(timeout.failure) }
                }
            }
            return Disposable()
        }
    }
}
