import StreamServiceConcurrency
import NetCore
import Streams

/// One timer for every open event stream: each beat is a comment message that
/// keeps proxies and clients from timing an idle stream out. Sharing the clock
/// keeps the cost of 10,000 idle SSE clients at one timer, not 10,000.
public final class HeartbeatClock: Sendable {
    /// The encoded comment, the same bytes for every stream.
    public static let beat = ServerSentEvent.comment("heartbeat").encoded

    public let period: Duration
    private let beats = Streamer<[UInt8]>()
    private let ticking = Locked<Disposable?>(nil)
    private let scheduler: any Scheduler

    public init(period: Duration, scheduler: any Scheduler = QueueScheduler(label: "sse.heartbeat")) {
        self.period = period
        self.scheduler = scheduler
    }

    /// Beats every `period`, the first one `period` after starting. Idempotent.
    public func start() {
        ticking.withLock { ticking in
            guard ticking == nil else { return }
            ticking = DataStream.interval(period, scheduler: scheduler).skip(1).watch(data: { [beats] _ in beats.data(Self.beat) })
        }
    }

    public func stop() {
        ticking.withLock { ticking in
            ticking?.dispose()
            ticking = nil
        }
    }

    /// The beats from now on; never ends.
    public var stream: DataStream<[UInt8]> { beats.asDataStream() }

    deinit { ticking.withLock { $0?.dispose() } }
}
