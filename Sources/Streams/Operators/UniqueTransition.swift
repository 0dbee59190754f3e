// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Drops a value equal to the one just before it (ReactiveX: distinctUntilChanged).
    ///
    ///     source:             -1-1-2-2-1-|
    ///     uniqueTransition(): -1---2---1-|
    ///
    /// A throw from `isEquivalent` is delivered as `.error` and disposes the upstream.
    public func uniqueTransition(
        by isEquivalent: @escaping @Sendable (Element, Element) throws -> Bool
    ) -> DataStream<Element> {
        DataStream { downstream in
            let previous = OperatorState<Element?>(nil)
            return self.watch(using: Watcher.relay { event in
                switch event {
                case .data(let value):
                    do {
                        let isNew = try previous.withLock { previous -> Bool in
                            if let last = previous, try isEquivalent(last, value) { return false }
                            previous = value
                            return true
                        }
                        if isNew { downstream.data(value) }
                    } catch {
                        downstream.error(error)
                    }
                case .error(let error): downstream.error(error)
                case .end: downstream.end()
                }
            })
        }
    }

    /// Drops a value whose key equals the previous value's key.
    ///
    ///     source:                      -"a"-"ab"-"b"-|
    ///     uniqueTransition(\.first):   -"a"------"b"-|
    public func uniqueTransition<Key: Equatable & Sendable>(
        _ key: @escaping @Sendable (Element) throws -> Key
    ) -> DataStream<Element> {
        uniqueTransition { try key($0) == key($1) }
    }
}

extension StreamType where Element: Equatable {
    /// Drops a value equal to the one just before it (ReactiveX: distinctUntilChanged).
    ///
    ///     source:             -1-1-2-2-1-|
    ///     uniqueTransition(): -1---2---1-|
    public func uniqueTransition() -> DataStream<Element> {
        uniqueTransition(by: ==)
    }
}
