// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import NetCore

extension EntityTag {
    /// The quoted SHA-256 of `bytes`: equal bytes, equal tag, so it stays strong across restarts.
    static func strong(for bytes: [UInt8]) -> String {
        quoted(MessageDigest.sha256.hex(bytes))
    }

    /// `strong(for:)`, its digest kept in `memo` under `key` while the bytes stay the same.
    static func strong(for bytes: [UInt8], key: Int, memo: DigestMemo) -> String {
        precondition(memo.digest == .sha256, "a strong tag is a SHA-256")
        return quoted(memo.hex(of: bytes, key: key))
    }

    private static func quoted(_ hex: String) -> String { "\"\(hex)\"" }
}
