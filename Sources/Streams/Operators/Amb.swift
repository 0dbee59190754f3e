// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Whichever of this stream and `other` sends an event first; the other is disposed
    /// at that moment (ReactiveX: `amb`; RxJS: `race`; Combine and ReactiveCocoa: none).
    ///
    ///     self:       ---1-2-|
    ///     other:      -5---6---|
    ///     amb(other): -5---6---|      (self disposed when 5 arrives)
    public func amb<Other: StreamType>(_ other: Other) -> DataStream<Element> where Other.Element == Element {
        DataStream.amb([self, other])
    }
}

extension DataStream {
    /// The first of `sources` to send an event — a value, an error or the end — wins and is
    /// mirrored; every other one is disposed then (ReactiveX: `amb`; RxJS: `race`).
    /// `amb([])` ends at once; sources are watched in order, and one that sends an event
    /// while being watched wins before the later ones are watched at all.
    ///
    ///     a:               ----1-|
    ///     b:               --7-8---|
    ///     c:               ------9-|
    ///     amb([a, b, c]):  --7-8---|
    public static func amb(_ sources: [any StreamType<Element>]) -> DataStream<Element> {
        guard !sources.isEmpty else { return .empty() }
        return DataStream { downstream in
            let sink = SerializedSink(AmbState(), downstream: downstream)
            let slots = sources.map { _ in SerialDisposable() }
            for (index, source) in sources.enumerated() {
                guard !downstream.isStopped, sink.read({ $0.winner == nil }) else { break }
                slots[index].replace(with: source.watch(using: Watcher.relay { event in
                    let won = sink.update { state, outbox -> Bool in
                        let won = state.winner == nil
                        if won { state.winner = index }
                        if state.winner == index { outbox.event(event) }
                        return won
                    }
                    // The losers go the moment the race is decided; disposed outside the sink's lock.
                    if won {
                        for (other, slot) in slots.enumerated() where other != index { slot.dispose() }
                    }
                }))
            }
            return Disposable {
                for slot in slots { slot.dispose() }
            }
        }
    }
}

private struct AmbState: Sendable {
    /// The index of the source that sent the first event.
    var winner: Int?
}
