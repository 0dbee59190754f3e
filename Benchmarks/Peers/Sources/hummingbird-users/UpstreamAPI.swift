// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import Foundation
import Hummingbird

/// The two upstream calls of `/users`, through the shared HTTPClient.
struct UpstreamAPI: Sendable {
    let client: HTTPClient
    let baseURL: String
    /// `Accept-Encoding: gzip` (the client then inflates); false takes identity bodies.
    let asksGzip: Bool

    func users(limit: Int) async throws -> [UpstreamUser] {
        let (_, body) = try await get("\(baseURL)/users?since=0&per_page=\(limit)")
        return try JSONDecoder().decode([UpstreamUser].self, from: Data(body.readableBytesView))
    }

    func avatar(url: String) async throws -> (contentType: String, body: ByteBuffer) {
        let (contentType, body) = try await get(url)
        return (contentType ?? "application/octet-stream", body)
    }

    private func get(_ url: String) async throws -> (contentType: String?, body: ByteBuffer) {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/vnd.github+json")
        request.headers.add(name: "User-Agent", value: "hummingbird-users")
        // As ours with `--upstream-gzip true`: the demo upstream then gzips the user list for both.
        if asksGzip { request.headers.add(name: "Accept-Encoding", value: "gzip") }
        let response = try await client.execute(request, timeout: .seconds(5))
        guard (200..<300).contains(response.status.code) else {
            throw HTTPError(.badGateway, message: "upstream answered \(response.status.code) for \(url)")
        }
        // Avatars are a few KB; 8 MiB bounds a misbehaving upstream.
        let body = try await response.body.collect(upTo: 8 << 20)
        return (response.headers.first(name: "content-type"), body)
    }
}
