// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import Foundation
import XCTest
@testable import Server
import HTTPTestSupport

/// An application with access control on, and the PyJWT mint that makes its tokens.
struct AuthHarness {
    let app: AppHarness
    let mint: TokenMint

    /// HS256 with the mint's secret, `protected` behind tokens, no leeway unless given.
    init(_ test: XCTestCase, mint: TokenMint? = nil, key: AuthSettings.Key? = nil, protected: Set<ProtectedArea> = [.events],
         leeway: Duration = .zero, configure: (inout ServiceConfiguration) -> Void = { _ in }) throws {
        let mint = try mint ?? TokenMint()
        self.mint = mint
        app = try AppHarness(test) { configuration in
            var settings = AuthSettings(key: key ?? .secret(mint.secret), protected: protected)
            settings.leeway = leeway
            configuration.auth = settings
            configure(&configuration)
        }
    }

    func get(_ target: String, token: String? = nil, headers: [String: String] = [:]) throws -> RawHTTPClient.Response {
        var headers = headers
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return try app.get(target, headers: headers)
    }

    func events(_ target: String = "/events", token: String? = nil, headers: [String: String] = [:]) throws -> SSETestClient {
        var headers = headers
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return try SSETestClient(port: app.port, target: target, headers: headers)
    }

    func publish(_ kind: PipelineEvent.Kind = .data, pipeline: String) {
        app.hub.publish(PipelineEvent(kind: kind, pipeline: pipeline, requestId: "r", stage: "s"))
    }
}

extension RawHTTPClient.Response {
    /// The RFC 6750 `error` of the `WWW-Authenticate` challenge, nil when there is none.
    var bearerError: String? {
        guard let challenge = header("WWW-Authenticate"), let range = challenge.range(of: #"error=""#) else { return nil }
        return String(challenge[range.upperBound...].prefix { $0 != "\"" })
    }
}
