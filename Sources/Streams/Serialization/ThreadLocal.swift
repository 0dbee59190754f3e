// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One object per thread, made on the thread's first use and released when the
/// thread exits: the pending-subscription stack, the current-thread trampoline.
/// Only its own thread ever touches a thread's object.
///
/// Its key is made on first use: a `static let` of one whose initialiser made the key went
/// through `swift_once` on every read (a call and 7 instructions), where a constant zero is laid
/// out in the binary and read as a plain load. With `Disposable.isShared` read in `DataStream.watch`
/// where `Disposable.nothing` was: `swift_once` 282 → 76 calls a `/users` request.
struct ThreadLocal<Value: AnyObject>: ~Copyable, Sendable {
    /// The key plus one; 0 until the first use makes it.
    private let keyPlusOne = Atomic<UInt>(0)

    init() {}

    @inline(__always)
    private var key: pthread_key_t {
        let stored = keyPlusOne.load(ordering: .acquiring)
        return stored != 0 ? pthread_key_t(truncatingIfNeeded: stored &- 1) : makeKey()
    }

    /// The first use, on any thread: one key wins, a loser's is deleted.
    @inline(never)
    private func makeKey() -> pthread_key_t {
        var made = pthread_key_t()
        pthread_key_create(&made) { pointer in
            guard let pointer else { return }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        let (exchanged, stored) = keyPlusOne.compareExchange(expected: 0, desired: UInt(made) + 1, ordering: .acquiringAndReleasing)
        guard !exchanged else { return made }
        pthread_key_delete(made)
        return pthread_key_t(truncatingIfNeeded: stored &- 1)
    }

    /// This thread's object, if it has made one.
    var ifMade: Value? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// This thread's object, made by `make` on first use.
    func value(_ make: () -> Value) -> Value {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
        }
        let value = make()
        pthread_setspecific(key, Unmanaged.passRetained(value as AnyObject).toOpaque())
        return value
    }

    /// This thread's object, made by `make` on first use, lent to `body` without the retain and
    /// release a returned reference costs: the thread's slot holds it until the thread exits,
    /// so it outlives any call on that thread. For the pending-subscription stack, read a few
    /// times per subscription (the figure: Benchmarks/README.md, "Ledger").
    @inline(__always)
    func withValue<Result>(_ make: () -> Value, _ body: (Value) throws -> Result) rethrows -> Result {
        let pointer: UnsafeMutableRawPointer
        if let existing = pthread_getspecific(key) {
            pointer = existing
        } else {
            pointer = Unmanaged.passRetained(make() as AnyObject).toOpaque()
            pthread_setspecific(key, pointer)
        }
        return try Unmanaged<Value>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
    }
}
