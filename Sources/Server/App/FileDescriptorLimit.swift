// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every connection is a file descriptor; the usual soft limit (1024) would cap
/// the server far below `--max-connections`, so raise it to the hard limit as
/// servers conventionally do.
enum FileDescriptorLimit {
    /// Raises the soft limit to the hard limit; returns the limit now in force.
    @discardableResult
    static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(resourceKind, &limit) == 0 else { return -1 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resourceKind, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    #if canImport(Glibc)
    private static let resourceKind = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resourceKind = RLIMIT_NOFILE
    #endif
}
