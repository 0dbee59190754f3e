// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Replaces an error with `value` followed by the end (ReactiveX: catchAndReturn).
    ///
    ///     source:      -1-2-#
    ///     recover(9):  -1-2-9|
    public func recover(_ value: Element) -> DataStream<Element> {
        recover { _ in DataStream.just(value) }
    }

    /// Replaces an error with the stream `handler` returns for it (ReactiveX: catch).
    ///
    ///     source:                  -1-2-#
    ///     fallback:                      -8-9-|
    ///     recover { _ in fallback }: -1-2-8-9-|
    ///
    /// A throw from `handler` is delivered as `.error`.
    public func recover<Fallback: StreamType>(
        _ handler: @escaping @Sendable (Error) throws -> Fallback
    ) -> DataStream<Element> where Fallback.Element == Element {
        recovering(handler)
    }

    /// `recover` with a `DataStream` fallback: the overload that lets the closure say
    /// `.just(…)`, `.empty()` or `.just(error:)` (a generic `Fallback` cannot be inferred from an
    /// implicit member).
    ///
    ///     source:                  -1-2-#
    ///     recover { _ in .just(9) }: -1-2-9|
    public func recover(_ handler: @escaping @Sendable (Error) throws -> DataStream<Element>) -> DataStream<Element> {
        recovering(handler)
    }

    private func recovering<Fallback: StreamType>(
        _ handler: @escaping @Sendable (Error) throws -> Fallback
    ) -> DataStream<Element> where Fallback.Element == Element {
        oneToOne { downstream in
            let stage = RecoverStage(handler: handler, downstream: downstream)
            // The source's own subscription is the one returned: disposing it stops the watcher,
            // which stops the downstream (handed on); after an error it reaches the fallback.
            let source = self.watch(using: Watcher(
                handingOnTo: downstream,
                onData: { value in try downstream.handOnData(value) },
                onTerminal: { [stage] event in stage.finish(event) }
            ))
            return stage.watched(source)
        }
    }
}
