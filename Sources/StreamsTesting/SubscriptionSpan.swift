/// When a test stream was watched and when that watch was disposed, in virtual
/// milliseconds (RxTest: `Subscription`; RxJS marbles: `"^---!"`).
///
///     XCTAssertEqual(source.subscriptions, [SubscriptionSpan(200, 600)])
///     XCTAssertEqual(source.subscriptions, [SubscriptionSpan("--^---!", frame: .milliseconds(100))])
///
/// A subscription ends when it is disposed, and also when its watcher receives a
/// terminal event (the library then disposes it).
public struct SubscriptionSpan: Sendable, Hashable, CustomStringConvertible {
    /// When the subscription began, in virtual milliseconds.
    public var subscribed: Int
    /// `nil` while the subscription is still live.
    public var disposed: Int?

    /// A subscription from `subscribed` to `disposed` (virtual milliseconds; `nil`: still live).
    public init(_ subscribed: Int, _ disposed: Int? = nil) {
        self.subscribed = subscribed
        self.disposed = disposed
    }

    /// Reads a span from a marble string: `^` marks the subscription, `!` the disposal,
    /// every other character is one `frame`.
    public init(_ marbles: String, frame: Duration = Marbles.defaultFrame) {
        let step = frame.virtualMilliseconds
        var subscribed = 0
        var disposed: Int?
        for (index, character) in marbles.filter({ $0 != " " }).enumerated() {
            if character == "^" { subscribed = index * step }
            if character == "!" { disposed = index * step }
        }
        self.init(subscribed, disposed)
    }

    public var description: String {
        "(\(subscribed) ms, \(disposed.map { "\($0) ms" } ?? "live"))"
    }
}
