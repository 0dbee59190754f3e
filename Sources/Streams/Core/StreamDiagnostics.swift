// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Synchronization

/// Process-wide counters that show whether subscriptions are being released.
///
/// `liveSubscriptions` counts subscriptions that have started and have neither
/// ended, failed nor been disposed. It returning to its baseline after work is
/// done is the leak check used by the tests and the `stream_subscriptions_live` gauge.
public enum StreamDiagnostics {
    private static let live = Atomic<Int>(0)

    /// Subscriptions currently alive in this process.
    public static var liveSubscriptions: Int { live.load(ordering: .relaxed) }

    static func subscriptionStarted() { live.add(1, ordering: .relaxed) }
    static func subscriptionEnded() { live.subtract(1, ordering: .relaxed) }
}
