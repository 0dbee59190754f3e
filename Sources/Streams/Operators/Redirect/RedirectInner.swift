// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// An inner stream as `redirect` starts it: a fused synchronous source, run in place, or a
/// stream to watch.
///
/// Told apart where `redirect`'s transform is called, while the inner stream's type is still
/// known: there `as? DataStream` folds away once specialised. `Redirection` used to ask it of the
/// existential, where the cast was the runtime's general `swift_dynamicCast`, ~240 instructions
/// once per inner stream (31 a `/users` request; the figure: Benchmarks/README.md, "Ledger").
@usableFromInline
enum RedirectInner<Value: Sendable>: Sendable {
    case inline(SynchronousSource<Value>)
    case watched(any StreamType<Value>)

    @inlinable
    init<Inner: StreamType>(_ stream: Inner) where Inner.Element == Value {
        if let source = (stream as? DataStream<Value>)?.synchronousSource {
            self = .inline(source)
        } else {
            self = .watched(stream)
        }
    }

    /// For a stream whose type is not known (`concat`'s sources): the cast at run time.
    @inlinable
    init(existential stream: any StreamType<Value>) {
        if let source = (stream as? DataStream<Value>)?.synchronousSource {
            self = .inline(source)
        } else {
            self = .watched(stream)
        }
    }
}
