// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTP
import NetCore
import Streams

/// One GET through the HTTP library's client: does `/health` answer 200? `https` (a
/// service started with `--tls-cert`) is not certificate-checked, since the check talks
/// to its own service.
enum HealthProbe {
    enum Outcome: Equatable, Sendable {
        case healthy
        case unhealthy(String)
    }

    static func check(url text: String, timeout: Duration) -> Outcome {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else {
            return .unhealthy("expected an http:// or https:// URL")
        }
        let client = HTTPClient(
            connectTimeout: timeout, maxConnectionsPerOrigin: 1,
            tlsConfiguration: .client(verifyPeer: false), loops: EventLoopGroup(count: 1, label: "healthcheck")
        )
        let request = HTTPClientRequest(url: url, headers: ["User-Agent": "stream-service-healthcheck"])
        let outcome = Locked<Outcome?>(nil)
        let answered = DispatchSemaphore(value: 0)
        let settle: @Sendable (Outcome) -> Void = { result in
            outcome.withLock { $0 = $0 ?? result }
            answered.signal()
        }
        let subscription = client.send(request).watch(
            data: { response in settle(response.status == .ok ? .healthy : .unhealthy("status \(response.status.code)")) },
            error: { error in settle(.unhealthy("\(error)")) }
        )
        _ = answered.wait(timeout: .now() + timeout.dispatchInterval)
        subscription.dispose()
        return outcome.withLock { $0 } ?? .unhealthy("no answer in time")
    }
}
