// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation

public enum Formatting {
    /// ns/element with precision that suits its size: 0.52, 17.3, 1,384.
    public static func nanoseconds(_ value: Double?) -> String {
        guard let value else { return "–" }
        switch value {
        case ..<10: return String(format: "%.2f", value)
        case ..<100: return String(format: "%.1f", value)
        default: return grouped(Int(value.rounded()))
        }
    }

    public static func megabytes(kilobytes: Double?) -> String {
        guard let kilobytes else { return "–" }
        return String(format: "%.1f MB", kilobytes / 1024)
    }

    public static func ratio(_ value: Double?) -> String {
        guard let value else { return "–" }
        return value < 0.1 ? String(format: "%.3f×", value) : String(format: "%.2f×", value)
    }

    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return value < 0 ? "-" + out : out
    }

    /// A GitHub-flavoured markdown table with columns padded for reading in a terminal.
    public static func table(header: [String], rows: [[String]]) -> String {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func render(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
                .joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        return ([render(header), rule] + rows.map(render)).joined(separator: "\n")
    }
}
