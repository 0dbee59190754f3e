// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import COpenSSL

/// A TLS setup or handshake failure with OpenSSL's error text.
public struct TLSError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ message: String) {
        description = message
    }

    /// `message` followed by (and clearing) OpenSSL's thread-local error queue.
    static func fromOpenSSL(_ message: String) -> TLSError {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(nulTerminated: buffer))
        }
        return TLSError(reasons.isEmpty ? message : "\(message): \(reasons.joined(separator: "; "))")
    }
}
