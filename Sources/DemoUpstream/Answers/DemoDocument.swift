// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import Domain
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import NetCore

/// An answer's body with its own header fields, in name order (the rate limit's fields are
/// added per answer): encoded once and kept for a request the demo will be asked again.
struct DemoDocument: Sendable {
    let fields: HTTPHeaders
    let body: [UInt8]
    /// The `ETag` field's value, for the `If-None-Match` check.
    let etag: String?

    /// What the document counts against a `BoundedMemo`'s budget.
    var bytes: Int { body.count + fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count } }

    /// JSON with GitHub's content type, sorted keys and unescaped slashes (the bytes are a
    /// function of the value); `tagged` adds a weak ETag of the body, as GitHub tags a 200.
    static func json(_ value: DemoJSON, tagged: Bool, link: String? = nil) -> DemoDocument {
        let body = (try? Response.jsonEncoder().encode(value)).map { Array($0) } ?? Array("{}".utf8)
        let etag = tagged ? "W/\"\(MessageDigest.sha256.hex(body).prefix(32))\"" : nil
        var fields = HTTPHeaders([("Content-Type", "application/json; charset=utf-8")])
        if let etag { fields.add(name: "ETag", value: etag) }
        if let link { fields.add(name: "Link", value: link) }
        return DemoDocument(fields: fields, body: body, etag: etag)
    }

    /// A user's identicon as an avatar origin serves it, with a strong ETag of the PNG.
    static func avatar(of user: DemoUser) -> DemoDocument {
        let png = Identicon(login: user.login).png()
        let etag = "\"\(MessageDigest.sha256.hex(png).prefix(32))\""
        return DemoDocument(
            fields: HTTPHeaders([("Cache-Control", Self.avatarCacheControl), ("Content-Type", "image/png"), ("ETag", etag)]),
            body: png, etag: etag)
    }

    static let avatarCacheControl = "max-age=300"
}
