// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

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
    /// every other character is one `frame`; a group `(^!)` puts both at the group's frame,
    /// as RxJS's marbles do (a watch disposed at once, as of an empty or failing source).
    public init(_ marbles: String, frame: Duration = Marbles.defaultFrame) {
        let step = frame.virtualMilliseconds
        var subscribed = 0
        var disposed: Int?
        var groupStart: Int?
        for (index, character) in marbles.filter({ $0 != " " }).enumerated() {
            let time = (groupStart ?? index) * step
            switch character {
            case "(": groupStart = index
            case ")": groupStart = nil
            case "^": subscribed = time
            case "!": disposed = time
            default: break
            }
        }
        self.init(subscribed, disposed)
    }

    public var description: String {
        "(\(subscribed) ms, \(disposed.map { "\($0) ms" } ?? "live"))"
    }
}
