// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import Streams

/// Where the upstream response cache keeps its entries: the seam between the caching stage
/// (`CachingTransport`) and a storage tier. `InMemoryUpstreamCache` is the process-local
/// tier; a shared tier (Redis) implements the same two calls.
///
/// A lookup is a stream so that a networked store answers asynchronously; it delivers one
/// value (nil when absent) and ends. A store that fails to look up should deliver nil
/// rather than an error: a cache miss costs one upstream request, a failed call costs the
/// answer. Storing is fire-and-forget for the same reason.
public protocol UpstreamCacheStore: Sendable {
    func entry(for key: UpstreamCacheKey) -> DataStream<UpstreamCacheEntry?>
    func store(_ entry: UpstreamCacheEntry, for key: UpstreamCacheKey)
}

/// Identifies one cacheable answer: the URL and who asked. `credential` is the SHA-256
/// of the `Authorization` header (empty without one), so answers given to one token are
/// never served to another and no token is kept in the store.
public struct UpstreamCacheKey: Sendable, Hashable, Codable, CustomStringConvertible {
    public let url: String
    public let credential: String

    public init(url: String, credential: String) {
        self.url = url
        self.credential = credential
    }

    public init(_ request: UpstreamRequest) {
        url = request.url.absoluteString
        credential = request.header("Authorization").map { MessageDigest.sha256.hex(Array($0.utf8)) } ?? ""
    }

    public var description: String { credential.isEmpty ? url : "\(url) [\(credential.prefix(12))]" }
}

/// A stored 200 answer with the validators that let the upstream confirm it unchanged.
public struct UpstreamCacheEntry: Sendable, Equatable, Codable {
    public let status: Int
    public let headers: [String: String]
    public let body: [UInt8]
    public let etag: String?
    public let lastModified: String?

    /// nil when the answer carries no validator (nothing to revalidate with) or is not a 200.
    public init?(_ response: UpstreamResponse) {
        let etag = response.header("etag"), lastModified = response.header("last-modified")
        guard response.status == 200, etag != nil || lastModified != nil else { return nil }
        status = response.status
        headers = response.headers
        body = response.body
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Bytes this entry holds, the unit the store's bound counts in.
    public var size: Int {
        body.count + headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
    }

    /// The stored answer, refreshed by the headers of the 304 that confirmed it (GitHub's
    /// 304 carries current rate-limit headers); the body's own headers stay the stored ones.
    public func response(confirmedBy notModified: UpstreamResponse) -> UpstreamResponse {
        UpstreamResponse(status: status, stored: headers, refreshedBy: notModified, keeping: Self.representationFields, body: body)
    }

    /// The fields that describe the stored body, which a 304 does not replace.
    static let representationFields: Set<String> = ["content-type", "content-length", "content-encoding", "transfer-encoding"]
}
