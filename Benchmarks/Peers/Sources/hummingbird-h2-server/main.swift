// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdPeerSupport
import NIOSSL
import PeerSupport

// Hummingbird 2 over HTTP/2 (HummingbirdHTTP2, on swift-nio-http2), the peer of scripts/bench-h2:
// the same GET /health as hummingbird-server, served as the module's documentation sets it up. With
// --tls-cert/--tls-key: TLS with ALPN offering h2 then http/1.1 (`.http2Upgrade`); without: h2c with
// prior knowledge only (`.plaintextHTTP2()`; it cannot serve HTTP/1.1 on that port, where ours can).
let options = ServerOptions()
let router = Router()

router.addHealthRoute()

let server: HTTPServerBuilder
let scheme: String
if let tls = options.tls {
    let certificates = try NIOSSLCertificate.fromPEMFile(tls.certificate)
    let key = try NIOSSLPrivateKey(file: tls.key, format: .pem)
    let configuration = TLSConfiguration.makeServerConfiguration(
        certificateChain: certificates.map { .certificate($0) },
        privateKey: .privateKey(key)
    )
    server = try .http2Upgrade(tlsConfiguration: configuration)
    scheme = "https"
} else {
    server = .plaintextHTTP2()
    scheme = "http (h2c, prior knowledge)"
}

let app = Application(
    router: router,
    server: server,
    configuration: .init(address: .hostname(options.host, port: options.port), serverName: "hummingbird-bench")
)
print("hummingbird-h2-server listening on \(scheme)://\(options.host):\(options.port)")
try await app.runService()
