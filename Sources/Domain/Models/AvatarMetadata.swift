// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetCore
import StreamServiceJSON

/// What `/users` tells about a user's avatar: where to get it and what it is.
///
/// Two JSON writers on purpose: `Codable` is the reference, `writeJSON` the fast path;
/// `AnswerJSONTests` holds their bytes equal.
public struct AvatarMetadata: Codable, Sendable, Equatable {
    /// The service's own `/users/{login}/avatar`.
    public let url: String
    /// Where the upstream serves it.
    public let upstreamUrl: String
    public let contentType: String
    public let bytes: Int
    public let sha256: String
    /// `data:` URI with the image, only when `embed=data-uri`.
    public let dataURI: String?
    /// True when the upstream image could not be fetched and a placeholder stands in.
    public let placeholder: Bool?

    /// `/users/{login}/avatar`, written into one string of exactly its length: the interpolation
    /// grew its buffer twice, and `String.append` into a reserved one still cost about 1,300
    /// instructions an avatar (Benchmarks/README.md, Ledger).
    static func url(login: String) -> String {
        let prefix: StaticString = "/users/", suffix: StaticString = "/avatar"
        let written = login.utf8.withContiguousStorageIfAvailable { name in
            String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + name.count + suffix.utf8CodeUnitCount) { text in
                var end = text.initialize(fromContentsOf: UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
                end = text[end...].initialize(fromContentsOf: name)
                return text[end...].initialize(fromContentsOf: UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount))
            }
        }
        return written ?? "/users/\(login)/avatar"
    }

    public init(login: String, upstreamUrl: String, image: AvatarImage, embedDataURI: Bool, placeholder: Bool = false) {
        self.init(login: login, upstreamUrl: upstreamUrl, image: image, sha256: MessageDigest.sha256.hex(image.bytes), embedDataURI: embedDataURI, placeholder: placeholder)
    }

    /// - Parameter sha256: the image's digest as `MessageDigest.sha256.hex` gives it (or `DigestMemo`).
    init(login: String, upstreamUrl: String, image: AvatarImage, sha256: String, embedDataURI: Bool, placeholder: Bool) {
        url = Self.url(login: login)
        self.upstreamUrl = upstreamUrl
        contentType = image.contentType
        bytes = image.bytes.count
        self.sha256 = sha256
        dataURI = embedDataURI ? "data:\(image.contentType);base64,\(Data(image.bytes).base64EncodedString())" : nil
        self.placeholder = placeholder ? true : nil
    }
}

extension AvatarMetadata: JSONWritable {
    /// `JSONEncoder`'s bytes (sorted keys, absent optionals left out), written directly.
    public func writeJSON(to json: inout JSONOutput) {
        json.object { json in
            json.field("bytes", bytes)
            json.field("contentType", contentType)
            json.field("dataURI", ifPresent: dataURI)
            json.field("placeholder", ifPresent: placeholder)
            json.field("sha256", sha256)
            json.field("upstreamUrl", upstreamUrl)
            json.field("url", url)
        }
    }
}
