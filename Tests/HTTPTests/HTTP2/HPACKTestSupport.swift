// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

@testable import HTTP

/// `"8286 8441"` → `[0x82, 0x86, 0x84, 0x41]`: the RFC's examples are written in hex groups.
func hexBytes(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}

func fieldPairs(_ fields: [(name: String, value: String)]) -> [String] {
    fields.map { "\($0.name): \($0.value)" }
}
