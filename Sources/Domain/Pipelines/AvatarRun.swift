// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import Synchronization

/// One subscription to a user's avatar outcome with its stages fused: the image made into the
/// outcome (`GitHubClient.avatar(url:login:trace:_:)`'s `map`), the `avatar` stage's trace
/// (`traced(_:stage:describe:valueEnds:)`, a `TracedRun`'s events) and a failure recovered under
/// the query's policy (`recover`), kept by this one object where the composition built a stream, a
/// stage and a watcher for each of the three. The composition stays as the slow twin
/// (`GitHubClient.CallFusing.operators`); `CallFusingTests` holds the two to the same events.
///
///     fetch:     ----r|            ----#
///     outcome:   ----(o|)          ----(p|)   (p: the policy's placeholder or skip; or # with `fail`)
///
/// Like the operators it stands for, it hands its downstream on: the fetch's subscription is the
/// only one, and disposing it stops this stage (publishing `dispose`) and the downstream.
final class AvatarRun: StoppableWatcher, Sendable {
    private let user: AvatarAttachment
    private let trace: PipelineTrace?
    private let downstream: Watcher<AvatarOutcome>
    /// One closing trace event per run, as `TracedRun`'s.
    private let finished = Atomic<Bool>(false)

    static let stage = "avatar"

    init(_ user: AvatarAttachment, trace: PipelineTrace?, downstream: Watcher<AvatarOutcome>) {
        self.user = user
        self.trace = trace
        self.downstream = downstream
    }

    /// Starts the avatar's GET for the downstream: `watchFetch` watches it with the watcher it is
    /// given (`GitHubClient.watchGet`).
    func watch(_ watchFetch: (Watcher<UpstreamResponse>) -> Disposable) -> Disposable {
        trace?.publish(.subscribe, stage: Self.stage)
        return watchFetch(Watcher(
            handingOnTo: self, onData: { [self] response in try received(response) }, onTerminal: { [self] event in ended(event) }))
    }

    private func received(_ response: UpstreamResponse) throws {
        let image = AvatarImage(bytes: response.body, contentType: response.header("content-type") ?? "application/octet-stream")
        let outcome = user.outcome(image, placeholder: false)
        if let trace {
            // A single's value is its end: both published as it arrives (`Single.traced`). The
            // detail from the image, as `user.detail(outcome)` gives it without copying the
            // outcome's user out (seven strings retained and released).
            trace.publish(.data, stage: Self.stage, detail: user.detail(image))
            if finish() { trace.publish(.end, stage: Self.stage) }
        }
        try downstream.handOnData(outcome)
    }

    private func ended(_ event: Event<UpstreamResponse>) {
        switch event {
        case .data:
            break
        case .end:
            if finish() { trace?.publish(.end, stage: Self.stage) }
            downstream.end()
        case .error(let error):
            if finish() { trace?.publish(.error, stage: Self.stage, detail: String(describing: error)) }
            switch user.recovery(from: error) {
            case .success(let outcome):
                downstream.data(outcome)
                downstream.end()
            case .failure(let failure):
                downstream.error(failure)
            }
        }
    }

    /// The fetch was disposed before it ended.
    func stop() {
        if finish() { trace?.publish(.dispose, stage: Self.stage) }
        downstream.stop()
    }

    private func finish() -> Bool { !finished.exchange(true, ordering: .acquiringAndReleasing) }
}
