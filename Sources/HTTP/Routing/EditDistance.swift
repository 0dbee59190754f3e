// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// How many single-character edits turn one name into another — insertions, deletions,
/// substitutions, and swaps of two neighbours (`lmiit` → `limit` is one) — the optimal string
/// alignment distance. For "did you mean …?" hints on names a person typed.
package enum EditDistance {
    package static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        // Three rows of the (a.count + 1) × (b.count + 1) table: a swap looks two rows back.
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }

    /// The candidate `name` most likely mistyped, if any is close: a third of the longer name's
    /// characters at most may differ (`limt` → `limit`, not `m` → `n`); case differences are free.
    package static func closest(to name: String, among candidates: [String]) -> String? {
        let typed = name.lowercased()
        let close = candidates.compactMap { candidate -> (name: String, distance: Int)? in
            let known = candidate.lowercased()
            let distance = between(typed, known)
            return distance * 3 <= max(typed.count, known.count) ? (candidate, distance) : nil
        }
        return close.min { $0.distance < $1.distance }?.name
    }
}
