// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A response's header list as HTTP/2 sends it (RFC 9113 §8.3.2): `:status` first, lowercase
/// names, the fields an HTTP/1.1 head adds (`date`, `server`, `content-length`, `x-request-id`),
/// and none of the connection-specific fields HTTP/2 forbids (§8.2.2).
enum HTTP2ResponseFields {
    static func fields(
        status: HTTPStatus, headers: HTTPHeaders, contentLength: Int?, serverName: String?, requestID: String?, date: [UInt8]
    ) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(headers.count + 5)
        fields.append((":status", String(status.code)))
        fields.append(("date", String(decoding: date, as: UTF8.self)))
        if let serverName { fields.append(("server", serverName)) }
        if let contentLength { fields.append(("content-length", String(contentLength))) }
        for (name, value) in headers {
            let lowercased = HTTP2RequestHead.lowercasedName(name)
            if HTTP2RequestHead.isConnectionSpecific(lowercased) || lowercased == "content-length" { continue }
            if requestID != nil && lowercased == "x-request-id" { continue }
            // A value HTTP/1.1 would have refused to write is not sent over HTTP/2 either (§8.2.1).
            if value.utf8.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) { continue }
            fields.append((lowercased, value))
        }
        if let requestID { fields.append(("x-request-id", requestID)) }
        return fields
    }
}
