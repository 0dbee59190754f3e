import Streams
import Synchronization

/// Fails a single-answer stream with `UpstreamError.timeout` when it has not terminated
/// within `limit`, disposing it (which closes its connection).
enum Deadline {
    static func stream<Element: Sendable>(_ source: DataStream<Element>, limit: Duration, scheduler: any Scheduler) -> DataStream<Element> {
        DataStream { watcher in
            let finished = Atomic<Bool>(false)
            let work = CurrentWork()
            let timer = scheduler.schedule(after: limit) {
                guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
                work.cancel()
                watcher.error(UpstreamError.timeout)
            }
            work.replace(
                with: source.watch { event in
                    switch event {
                    case .data(let value):
                        if !finished.load(ordering: .acquiring) { watcher.data(value) }
                    case .end, .error:
                        guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
                        timer.dispose()
                        watcher.event(event)
                    }
                })
            return Disposable {
                timer.dispose()
                work.cancel()
            }
        }
    }
}
