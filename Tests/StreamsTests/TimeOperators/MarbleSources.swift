import Synchronization
import Streams

extension TestScheduler {
    /// A hot source: emits `marbles` at their absolute virtual times to whoever is
    /// watching then, like a Streamer fed on a timetable.
    func hotMarbles<Element: Sendable>(_ marbles: [Marble<Element>]) -> Streamer<Element> {
        let streamer = Streamer<Element>()
        for marble in marbles {
            at(marble.time) { streamer.event(marble.event) }
        }
        return streamer
    }

    /// A cold source: every watcher gets `marbles` at times relative to its own
    /// subscription; disposing cancels what is still to come.
    func coldMarbles<Element: Sendable>(_ marbles: [Marble<Element>]) -> DataStream<Element> {
        DataStream { [self] watcher in
            let timers = marbles.map { marble in
                schedule(after: .milliseconds(marble.time)) { watcher.event(marble.event) }
            }
            return Disposable {
                for timer in timers { timer.dispose() }
            }
        }
    }
}
