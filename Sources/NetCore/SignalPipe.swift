// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to a socket the peer closed raises SIGPIPE, which kills the
/// process by default. Sends use MSG_NOSIGNAL too; ignoring the signal also
/// covers writes done elsewhere (e.g. by OpenSSL).
public enum SignalPipe {
    private static let ignored: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()

    public static func ignore() { _ = ignored }
}
