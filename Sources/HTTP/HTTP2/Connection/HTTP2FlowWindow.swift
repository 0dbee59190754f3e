// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// One flow-control window (RFC 9113 §5.2, §6.9): bytes the sender may still send. It may go
/// negative when SETTINGS_INITIAL_WINDOW_SIZE shrinks (§6.9.2), never above 2^31-1.
struct HTTP2FlowWindow: Sendable {
    static let maximum = Int(Int32.max)
    private(set) var value: Int

    init(_ value: Int) {
        self.value = value
    }

    /// WINDOW_UPDATE or a SETTINGS change; false when the window would pass 2^31-1 (a FLOW_CONTROL_ERROR).
    mutating func increase(by delta: Int) -> Bool {
        guard value + delta <= Self.maximum else { return false }
        value += delta
        return true
    }

    mutating func consume(_ count: Int) {
        value -= count
    }

    var available: Int { max(value, 0) }
}
