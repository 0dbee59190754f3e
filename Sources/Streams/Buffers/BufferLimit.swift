// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// How many values a buffer between a fast producer and a slow consumer may hold,
/// and what happens to the next one when it is full: the explicit policy of
/// `observe(on:buffer:)` and `values(buffer:)`.
///
///     capacity 2, consumer busy, producer: -1-2-3-4-
///     .dropOldest(2):  keeps 3 4      (dropped 2)   RxJava onBackpressureLatest-like, AsyncStream .bufferingNewest
///     .dropNewest(2):  keeps 1 2      (dropped 2)   RxJava onBackpressureDrop, AsyncStream .bufferingOldest
///     .fail(2):        1 2 then #     BufferOverflowError; the source is disposed (RxJava onBackpressureError)
///
/// `droppedCount` counts the values this limit has dropped, over every subscription
/// using it (a value it was built with, so keep the limit to read it).
///
/// Bounded by default (`.default` fails past 65,536 waiting values: a consumer that
/// far behind is stuck, and failing says so where silent dropping would not). There
/// is no policy that suspends the producer: a watcher's `data(_:)` returns nothing
/// the producer could wait on, so suspending would mean blocking its thread —
/// possibly the very thread the consumer needs. Combine's demand needs a pull
/// protocol, which `StreamType` (push, like ReactiveX's `Observable`) does not have;
/// the async bridge is where a consumer sets the pace, and `values` bounds it.
public struct BufferLimit: Sendable {
    /// What a full buffer does with the next value.
    public enum Overflow: Sendable, Equatable {
        /// Drop the oldest waiting value to make room (the consumer sees the latest).
        case dropOldest
        /// Drop the new value (the consumer sees the earliest).
        case dropNewest
        /// Fail with `BufferOverflowError` after the waiting values, disposing the source.
        case fail
    }

    /// Waiting values at most (≥ 1); `Int.max` for unbounded.
    public let capacity: Int
    /// What happens when a value arrives with `capacity` already waiting.
    public let overflow: Overflow
    @usableFromInline let counter: DropCounter

    /// A buffer of at most `capacity` waiting values, with the `overflow` policy.
    public init(capacity: Int, overflow: Overflow) {
        self.capacity = max(1, capacity)
        self.overflow = overflow
        counter = DropCounter()
    }

    /// At most `capacity` waiting values; a newcomer pushes out the oldest.
    public static func dropOldest(_ capacity: Int) -> BufferLimit { BufferLimit(capacity: capacity, overflow: .dropOldest) }
    /// At most `capacity` waiting values; a newcomer is dropped.
    public static func dropNewest(_ capacity: Int) -> BufferLimit { BufferLimit(capacity: capacity, overflow: .dropNewest) }
    /// At most `capacity` waiting values; one more fails the stream with `BufferOverflowError`.
    public static func fail(_ capacity: Int) -> BufferLimit { BufferLimit(capacity: capacity, overflow: .fail) }

    /// 65,536 waiting values, then fail: big enough for any burst a healthy consumer
    /// catches up with, small enough (0.5 MiB of 8-byte values) to stop a stuck one early.
    public static var `default`: BufferLimit { .fail(65_536) }

    /// No limit: every value waits (the former behaviour; memory grows with the backlog).
    public static var unbounded: BufferLimit { BufferLimit(capacity: .max, overflow: .fail) }

    /// Values dropped (or refused by `.fail`) so far under this limit.
    public var droppedCount: Int { counter.count.load(ordering: .relaxed) }

    func recordDrop() { counter.count.add(1, ordering: .relaxed) }

    /// Applies this limit to a buffer it does not hold itself, such as the HTTP layer's
    /// output buffer for a streamed response, measured in `unit`s (bytes there): nil while
    /// `waiting` is within `capacity`, else the error to end the stream with, counted in
    /// `droppedCount`. The owner applies `.fail` whatever `overflow` says: the bytes of a
    /// framed body cannot be dropped one by one.
    @inlinable
    public func overflow(waiting: Int, unit: String = "values") -> BufferOverflowError? {
        guard waiting > capacity else { return nil }
        return overflowed(unit: unit)
    }

    @usableFromInline
    func overflowed(unit: String) -> BufferOverflowError {
        recordDrop()
        return BufferOverflowError(capacity: capacity, unit: unit)
    }
}

/// The shared count behind `BufferLimit.droppedCount`.
@usableFromInline
final class DropCounter: Sendable {
    let count = Atomic<Int>(0)
}

/// What a `.fail` buffer limit delivers when its consumer falls `capacity` values behind.
public struct BufferOverflowError: Error, Equatable, CustomStringConvertible {
    /// How many values waited when the buffer overflowed.
    public let capacity: Int
    /// What `capacity` counts: values, or bytes for a byte buffer.
    public let unit: String

    /// The error of a buffer that overflowed at `capacity` `unit` (say, "values").
    public init(capacity: Int, unit: String = "values") {
        self.capacity = capacity
        self.unit = unit
    }

    public var description: String { "the consumer fell more than \(capacity) \(unit) behind" }
}
