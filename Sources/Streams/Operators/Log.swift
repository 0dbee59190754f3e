// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension StreamType {
    /// Logs every event and the subscription's start and disposal, passing events on
    /// unchanged (ReactiveX: debug).
    ///
    ///     source:         -1-2-|
    ///     log("numbers"): -1-2-|   (writes "numbers: watched", "numbers: data(1)", …)
    ///
    /// Lines go to `output` (standard output by default).
    public func log(
        _ label: String = "stream",
        to output: @escaping @Sendable (String) -> Void = { print($0) }
    ) -> DataStream<Element> {
        call(
            data: { output("\(label): data(\($0))") },
            error: { output("\(label): error(\($0))") },
            end: { output("\(label): end") },
            watched: { output("\(label): watched") },
            disposed: { output("\(label): disposed") }
        )
    }
}
