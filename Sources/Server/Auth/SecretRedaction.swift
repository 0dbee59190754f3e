// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// Keeps tokens out of logs and of ids other clients can see: the `access_token` query value is
/// replaced, and so is anything shaped like a JWT (`eyJ…` base64url, two dots: every JSON
/// object header encodes to `eyJ`), wherever it came from.
enum SecretRedaction {
    static let placeholder = "redacted"

    /// `target` with the value of every `access_token` parameter replaced; `target` itself when it has none.
    /// A name is compared as the query parser reads it, percent-decoded: `access%5Ftoken` is the
    /// same parameter to `BearerToken`, so it must be the same to the log.
    static func target(_ target: String) -> String {
        guard let queryMark = target.firstIndex(of: "?") else { return target }
        let query = target[target.index(after: queryMark)...]
        guard query.contains(BearerToken.queryParameter) || query.contains("%") else { return target }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.prefix { $0 != "=" }
            return name.endIndex < pair.endIndex && PercentEncoding.decode(name) == BearerToken.queryParameter
                ? "\(name)=\(placeholder)" : String(pair)
        }
        return String(target[...queryMark]) + pairs.joined(separator: "&")
    }

    /// Whether `text` looks like a compact JWS (a JWT): three base64url segments, the first a JSON object.
    static func looksLikeJWT(_ text: String) -> Bool {
        guard text.hasPrefix("eyJ") else { return false }
        var dots = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                dots += 1
            } else if !(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") || byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
                || byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")) {
                return false
            }
        }
        return dots == 2
    }

    /// A request id fit to log and to publish on `/events`: a client-chosen id that is a token is replaced.
    static func requestID(_ id: String) -> String {
        looksLikeJWT(id) ? placeholder : id
    }
}
