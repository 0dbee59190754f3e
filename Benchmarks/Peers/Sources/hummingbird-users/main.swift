// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import HummingbirdPeerSupport
import PeerSupport
import Hummingbird
import NIOSSL

// The main-job peer: Hummingbird 2 + AsyncHTTPClient answering `GET /users?limit=&concurrency=`
// like stream-service does (the upstream's user list, then each avatar, at most `concurrency` at
// once), written the way those libraries' documentation writes it: one shared pooled HTTPClient,
// async/await and a TaskGroup.
let options = ServerOptions()
guard let upstream = options.upstream else {
    fatalError("hummingbird-users needs --upstream http://127.0.0.1:PORT")
}

// One client for the process. AsyncHTTPClient's default of 8 connections per host would queue the
// 32 × 16 avatar fetches of the benchmark behind each other; 64 lets the pool keep up with it.
var clientConfiguration = HTTPClient.Configuration()
clientConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
// With `--upstream-gzip true` gzip is asked for in UpstreamAPI, as ours asks with the same switch, and
// inflated as it arrives, at most 64× the compressed size; otherwise the client's default (off).
if options.upstreamGzip { clientConfiguration.decompression = .enabled(limit: .ratio(64)) }
// Over TLS the client offers h2 then http/1.1 by ALPN (`.automatic`, AsyncHTTPClient's default,
// written out): an h2 upstream gets one multiplexed connection. A test CA is trusted the
// library's way, as its trust roots (scripts/bench-upstream-rtt).
clientConfiguration.httpVersion = .automatic
if let caFile = options.upstreamCAFile {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .file(caFile)
    clientConfiguration.tlsConfiguration = tls
}
let httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
let users = UsersService(
    api: UpstreamAPI(client: httpClient, baseURL: upstream, asksGzip: options.upstreamGzip), sortedKeys: options.sortedKeys)

let router = Router()
router.addHealthRoute()
router.get("users") { request, _ in
    let query = request.uri.queryParameters
    let limit = query.get("limit", as: Int.self) ?? 30
    let concurrency = query.get("concurrency", as: Int.self) ?? 8
    guard (1...100).contains(limit), (1...64).contains(concurrency) else {
        throw HTTPError(.badRequest, message: "limit must be 1-100, concurrency 1-64")
    }
    return try await users.response(limit: limit, concurrency: concurrency)
}

let app = Application(
    router: router,
    configuration: .init(address: .hostname(options.host, port: options.port), serverName: "hummingbird-users")
)
print("hummingbird-users listening on http://\(options.host):\(options.port), upstream \(upstream), gzip \(options.upstreamGzip), sorted keys \(options.sortedKeys)")
try await app.runService()
try await httpClient.shutdown().get()
