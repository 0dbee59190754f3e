// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension DataStream {
    /// A stream whose single value comes from an async closure, run in a new
    /// `Task` for every watcher: `DataStream { try await fetchUser(id) }`.
    ///
    ///     operation returns 5:  ----5|
    ///     operation throws:     ----#
    ///
    /// Disposing the subscription cancels the task; a value or error arriving
    /// after that is dropped.
    public convenience init(_ operation: @escaping @Sendable () async throws -> Element) {
        self.init { watcher in
            let task = Task {
                do {
                    let value = try await operation()
                    watcher.data(value)
                    watcher.end()
                } catch {
                    watcher.error(error)
                }
            }
            return Disposable { task.cancel() }
        }
    }
}
