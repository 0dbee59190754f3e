// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

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
struct ThreadLocal<Value: AnyObject>: Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        self.key = key
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
