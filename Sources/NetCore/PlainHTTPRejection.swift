// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What a TLS server answers a client that speaks plain HTTP to it: a `400` in
/// plain text, then close (as nginx does), rather than a handshake failure the
/// client shows as an empty reply or an unreadable alert.
enum PlainHTTPRejection {
    /// A TLS connection opens with a handshake record (content type 22); an HTTP/1.x
    /// request opens with a method token, whose first byte is an uppercase letter.
    static func isPlainHTTP(_ firstBytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = firstBytes.first else { return false }
        return first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z")
    }

    static let body = "400 Bad Request: this port speaks HTTPS; a plain HTTP request was sent to it. Use https://.\n"

    static let response: [UInt8] = Array((
        "HTTP/1.1 400 Bad Request\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n"
            + "\r\n"
            + body
    ).utf8)
}
