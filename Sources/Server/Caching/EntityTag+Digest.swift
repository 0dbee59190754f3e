// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import NetCore

extension EntityTag {
    /// The quoted SHA-256 of `bytes`: equal bytes, equal tag, so it stays strong across restarts.
    static func strong(for bytes: [UInt8]) -> String {
        "\"\(MessageDigest.sha256.hex(bytes))\""
    }
}
