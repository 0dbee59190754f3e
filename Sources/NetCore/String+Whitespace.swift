// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Text helpers that replace Foundation-only `String` API, so the release binary
/// links FoundationEssentials only (no ICU data). Used by Domain and Server.
extension StringProtocol {
    /// `self` without leading and trailing whitespace as Foundation's
    /// `trimmingCharacters(in: .whitespaces)` defines it (tab and Unicode space
    /// separators; line breaks are kept).
    package func trimmingWhitespace() -> String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isHorizontalWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.isHorizontalWhitespace })!
        return String(scalars[first...last])
    }
}

extension Unicode.Scalar {
    /// Member of Foundation's `CharacterSet.whitespaces`: tab, space, U+00A0,
    /// U+1680, U+2000–U+200B, U+202F, U+205F, U+3000.
    package var isHorizontalWhitespace: Bool {
        switch value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Member of Foundation's `CharacterSet.alphanumerics`: Unicode letters, marks and numbers.
    package var isLetterMarkOrNumber: Bool {
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark,
             .decimalNumber, .letterNumber, .otherNumber:
            true
        default:
            false
        }
    }
}
