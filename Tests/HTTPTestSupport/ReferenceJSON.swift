// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation

/// The bytes Foundation's `JSONEncoder` gives with sorted keys and unescaped slashes: the
/// reference `JSONOutput` and the answer types are held to.
public enum ReferenceJSON {
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }
}
