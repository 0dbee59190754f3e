// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension Duration {
    /// The duration as people write it in a sentence: `250 µs`, `1.5 ms`, `16 ms`, `1.5 s`,
    /// `36 s`, `2 min 5 s`, `1 h 30 min`, never `0.016413882770902128 seconds` (`Duration`'s
    /// own description). Below a minute it keeps two significant digits or whole units.
    package var text: String {
        let seconds = self.seconds
        guard seconds >= 0 else { return "-" + (.zero - self).text }
        if seconds < 0.001 { return "\(Int((seconds * 1_000_000).rounded())) µs" }
        if seconds < 1 { return Self.oneDecimalBelowTen(seconds * 1000) + " ms" }
        if seconds < 59.95 { return Self.oneDecimalBelowTen(seconds) + " s" }
        let whole = Int(seconds.rounded())
        if whole < 3600 { return whole % 60 == 0 ? "\(whole / 60) min" : "\(whole / 60) min \(whole % 60) s" }
        let minutes = (whole + 30) / 60
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }

    /// `1.5`, `2`, `16`, `999`: one decimal (dropped when it is 0) below 10, whole numbers above.
    private static func oneDecimalBelowTen(_ value: Double) -> String {
        if value >= 9.95 { return "\(Int(value.rounded()))" }
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }
}
