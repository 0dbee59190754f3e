import Synchronization
import Streams

/// Records the events a watcher receives, each stamped with the scheduler's virtual time.
final class MarbleRecorder<Element: Sendable>: Sendable {
    private let scheduler: TestScheduler
    private let recorded = Mutex<[Marble<Element>]>([])

    init(_ scheduler: TestScheduler) {
        self.scheduler = scheduler
    }

    var marbles: [Marble<Element>] { recorded.withLock { $0 } }
    var values: [Element] { marbles.compactMap(\.event.element) }

    var watcher: Watcher<Element> {
        Watcher { [self] event in
            let time = scheduler.now.marbleMilliseconds
            recorded.withLock { $0.append(.at(time, event)) }
        }
    }
}

extension TestScheduler {
    /// Watches `stream` with a new recorder; the subscription is returned alongside.
    func record<S: StreamType>(_ stream: S) -> (recorder: MarbleRecorder<S.Element>, subscription: Disposable) {
        let recorder = MarbleRecorder<S.Element>(self)
        let subscription = stream.watch(using: recorder.watcher)
        return (recorder, subscription)
    }

    /// Runs `work` at the absolute virtual time `milliseconds`.
    func at(_ milliseconds: Int, _ work: @escaping @Sendable () -> Void) {
        schedule(after: .milliseconds(milliseconds) - now, work)
    }
}
