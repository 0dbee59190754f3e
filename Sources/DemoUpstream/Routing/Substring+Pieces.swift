// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension Substring {
    /// `split(separator:maxSplits:omittingEmptySubsequences:)` at an ASCII separator, the same loop
    /// as the standard library's but over the bytes when the text is ASCII: the same pieces without
    /// walking `Character`s (the figure: Benchmarks/README.md). Outside ASCII it walks them, as
    /// only there can a separator be followed by a combining mark, which makes the two one
    /// character.
    func pieces(separatedBy separator: Unicode.Scalar, isASCII: Bool, maxSplits: Int = .max, omittingEmptySubsequences: Bool = true) -> [Substring] {
        guard isASCII else {
            return split(separator: Character(separator), maxSplits: maxSplits, omittingEmptySubsequences: omittingEmptySubsequences)
        }
        let byte = UInt8(separator.value)
        let bytes = utf8
        var pieces: [Substring] = []
        if maxSplits == 0 || isEmpty {
            if !(omittingEmptySubsequences && isEmpty) { pieces.append(self) }
            return pieces
        }
        var start = startIndex
        var index = start
        while index != endIndex {
            guard bytes[index] == byte else {
                bytes.formIndex(after: &index)
                continue
            }
            let appended = !(omittingEmptySubsequences && start == index)
            if appended { pieces.append(self[start..<index]) }
            bytes.formIndex(after: &index)
            start = index
            if appended && pieces.count == maxSplits { break }
        }
        if start != endIndex || !omittingEmptySubsequences { pieces.append(self[start..<endIndex]) }
        return pieces
    }
}
