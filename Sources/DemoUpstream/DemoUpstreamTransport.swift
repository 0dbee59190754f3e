// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import Streams

/// Talks to a `DemoUpstream` object directly, without sockets: for virtual-time tests of
/// the client and pipelines. A cut-short answer becomes the connection error a socket
/// client would report.
public struct DemoUpstreamTransport: UpstreamTransport {
    public let upstream: DemoUpstream

    public init(upstream: DemoUpstream) {
        self.upstream = upstream
    }

    public func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse> {
        let demoRequest = DemoRequest(method: request.method, target: request.target, host: request.hostHeader, headers: request.allHeaders)
        return upstream.respond(to: demoRequest).map { response throws(UpstreamError) in
            if response.truncatedAfter != nil { throw UpstreamError.connection("connection closed mid-body") }
            return UpstreamResponse(status: response.status, headers: response.headers, body: response.body)
        }
    }
}
