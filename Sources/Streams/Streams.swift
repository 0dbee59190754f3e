// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// # Streams
//
// A small reactive library: cold `DataStream`s built from a subscribe
// closure, hot subjects (`Streamer`, `ValueStreamer`, `ReplayStreamer`,
// `AsyncStreamer`, relays), operators in `extension StreamType`, traits whose
// type states their grammar (`Single`, `Maybe`, `Completable`, `Infallible`),
// schedulers with virtual time for tests (the `StreamsTesting` product adds
// the test kit), and a bridge to Swift concurrency (`values`, `first()`,
// `array()`, `DataStream { try await … }`). What waits for a slow consumer
// (`observe(on:)`, `values`) is bounded by a `BufferLimit`. `Streams.docc`
// has a guide per operator family.
//
// ## Contract
//
// 1. **Grammar**: a watcher receives `data* (error | end)?`. Nothing is
//    delivered after a terminal event, and the operator receiving one
//    disposes its upstream (before passing the terminal event on).
// 2. **Serialized delivery**: a watcher never receives two events at once,
//    even when sources emit from many threads; `merge`, `zip`,
//    `combineLatest`, `withLatestFrom`, `takeUntil`, `redirect` and the
//    subjects queue an event that arrives while another thread is
//    delivering, and that thread delivers it. No lock is held while user
//    code runs, so feeding a source back from a watcher cannot deadlock.
// 3. **Disposal** propagates upstream promptly and releases every closure;
//    a stream that ends or fails frees its resources too.
//    `StreamDiagnostics.liveSubscriptions` counts live subscriptions and
//    returns to its baseline when the work is done.
// 4. **Thread safety**: every public type may be used from any thread;
//    Swift 6 language mode with complete checking; the only
//    `@unchecked Sendable` types are lock-protected.
// 5. **No unbounded recursion**: a synchronous stream that ends inside its
//    own subscription and so triggers the next one (`concat`, `concatMap`,
//    `retry`, `redirect(maxConcurrent:)`) is looped over by a trampoline
//    instead of recursed into; operators are thin closures around a
//    `Watcher`, so chains of thousands of operators fit the default stack.
//
// **Synchronous fusion**: `from`, `just`, `just(data:)`, `just(error:)` and
// `empty` carry a `SynchronousSource`, and `map`, `filter`, `compactMap`,
// `scan`, `reduce`, `toArray`, `skip` and `take` on such a stream compose it
// (up to 64 stages, then they fall back to watchers) instead of subscribing:
// one subscription and one loop run the whole chain, checking for disposal
// before every source value, and `redirect`/`concatMap`/`concat` run a fused
// inner stream inline. The events are exactly those of the unfused chain.
// `reduce` and `toArray`, which take every value, run such a chain a batch
// of up to 128 values at a time when it has no `take` (checking for disposal
// before every batch): each of `map`, `filter`, `compactMap`, `scan` and
// `skip` makes one pass over a batch before the next stage sees it, so their
// closures do not alternate value by value as they would unfused. Values,
// order, errors and results are unchanged; keep side effects in `call`,
// which is never batched. An operator closure without captures is then
// specialized into its stage's loop by the optimizer.
//
// Operator closures may throw: the error is delivered downstream as
// `.error` and the upstream is disposed.
