// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import COpenSSL

/// OpenSSL's process-wide set-up, made once before any other OpenSSL call: without its `atexit`
/// clean-up. With it, `exit` freed OpenSSL's locks while an event loop was still closing a TLS
/// connection, and `stream-service healthcheck` over TLS died with SIGSEGV (in
/// `pthread_rwlock_rdlock`, main thread inside libcrypto's clean-up) about once in 600 runs.
/// The process's memory is given back at exit anyway.
public enum OpenSSLSetup {
    private static let done: Bool = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil) == 1

    /// Call before the first OpenSSL call of the process; later calls do nothing.
    public static func ensure() {
        _ = done
    }
}
