// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Text from outside the service (a decoded path, a header, an error message) made safe to
/// print in a log: an attacker's `%1b[31m`, `%07` or `%c2%85` must not reach an operator's
/// terminal as an escape sequence, a bell or a line break, nor split one event over two lines.
///
/// Escaped, JSON style: C0 controls (`\n`, `\r`, `\t`, else `\u00XX`), DEL and the C1 controls
/// U+0080–U+009F (NEL, CSI among them) as `\u00XX`, the Unicode line and paragraph separators
/// U+2028/U+2029 (which some viewers break lines at) as `\u2028`/`\u2029`, and `\` as `\\`, so
/// a literal `\u001b` in the input cannot pass for an escaped one. Both log formats use it:
/// the JSON one quoted (a valid JSON string that decodes to the input), the text one bare.
enum LogText {
    /// `text` escaped, in double quotes with `"` escaped too when `quoted`.
    static func escaped(_ text: String, quoted: Bool) -> String {
        guard quoted || needsEscaping(text) else { return text }
        var out = quoted ? "\"" : ""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"" where quoted: out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where isControl(scalar):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return quoted ? out + "\"" : out
    }

    /// Whether `scalar` must not be printed raw: C0, DEL, C1, U+2028, U+2029.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// A byte scan that lets the access log's common case (a plain ASCII path) through without
    /// decoding scalars: only `\`, a C0 byte, DEL, and the lead bytes of C1 (0xC2) and of
    /// U+2028/U+2029 (0xE2) can start something to escape.
    private static func needsEscaping(_ text: String) -> Bool {
        text.utf8.contains { byte in byte < 0x20 || byte == 0x7F || byte == 0x5C || byte == 0xC2 || byte == 0xE2 }
            && text.unicodeScalars.contains { $0 == "\\" || isControl($0) }
    }
}
