// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What a `Listener` reports when `accept()` keeps failing: descriptor exhaustion (`EMFILE`,
/// `ENFILE`) or kernel memory (`ENOBUFS`, `ENOMEM`) leaves the listening socket readable, so a
/// loop that simply waited for the next readiness event would spin on it at full speed. The
/// listener stops watching the socket instead and tries again after `AcceptPause.retryInterval`;
/// an episode is reported once when it begins and once when an accept succeeds again.
public enum AcceptPause: Sendable, Equatable {
    /// The first failure of an episode; connections wait in the kernel's backlog meanwhile.
    case paused(SocketError)
    /// An accept succeeded again after `duration` paused and `retries` failed tries.
    case resumed(after: Duration, retries: Int)

    /// 100 ms: at most ten failed accept calls a second while exhausted (no measurable CPU),
    /// and a freed descriptor is used within a tenth of a second. nginx waits 500 ms
    /// (`accept_mutex_delay`), which is slower to recover than a client's connect timeout needs.
    public static let retryInterval: Duration = .milliseconds(100)
}
