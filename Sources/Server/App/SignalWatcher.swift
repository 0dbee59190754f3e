// Dispatch sources are thread-safe but not yet annotated Sendable on Linux.
@preconcurrency import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns signals into calls on a queue (via Dispatch signal sources), after
/// disabling their default action of killing the process.
final class SignalWatcher: Sendable {
    private let sources: [DispatchSourceSignal]

    init(signals: [Int32], queue: DispatchQueue = DispatchQueue(label: "signals"), handler: @escaping @Sendable (Int32) -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.activate()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
