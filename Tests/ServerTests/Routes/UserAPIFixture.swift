// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import DemoUpstream
import Domain
import Foundation
import Streams
import Synchronization
import XCTest
@testable import Server
import HTTP
import HTTPTestSupport

/// The user API on 127.0.0.1 talking over real sockets to a demo upstream (or to
/// `upstreamURL`), both on ephemeral ports.
final class UserAPIFixture {
    let demo: DemoUpstreamServer?
    let services: UpstreamServices
    let api: TestServer
    /// The upstream client's metrics, in a registry of this fixture's own.
    let metrics = ServiceMetrics()
    let transport = HTTPUpstreamTransport()

    init(
        users: Int = 60, latency: Duration = .zero, failureRate: Double = 0, rateLimit: Int = 0, upstreamURL: URL? = nil,
        timeout: Duration = .seconds(2), retry: RetryPolicy = RetryPolicy(maxRetries: 6, baseDelay: .milliseconds(5), maxDelay: .milliseconds(100)),
        token: String? = nil, cacheBytes: Int = 0, heartbeat: HeartbeatClock? = nil, singleFlight: Bool = true,
        acceptsGzip: Bool = true
    ) throws {
        var baseURL = upstreamURL
        if upstreamURL == nil {
            let demo = DemoUpstreamServer(configuration: .init(users: users, latency: latency, failureRate: failureRate, rateLimit: rateLimit))
            try demo.start()
            self.demo = demo
            baseURL = demo.baseURL
        } else {
            demo = nil
        }
        let client = GitHubClient(
            configuration: .init(
                baseURL: baseURL!, token: token, timeout: timeout, retry: retry,
                cache: cacheBytes > 0 ? InMemoryUpstreamCache(capacityBytes: cacheBytes) : nil, singleFlight: singleFlight, acceptsGzip: acceptsGzip),
            transport: transport, scheduler: QueueScheduler(label: "test.upstream"), metrics: metrics.upstream())
        services = UpstreamServices(client: client, hub: PipelineEventHub())
        var router = Router()
        services.routes(responder: EventStreamResponder(heartbeat: heartbeat, subscribers: nil)).register(on: &router)
        api = try TestServer(router: router)
    }

    deinit {
        api.stop()
        demo?.stop()
    }

    func get(_ target: String, headers: [String: String] = [:], timeout: TimeInterval = 10) throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: api.port, timeout: timeout)
        try client.send(Self.request(target, headers: headers))
        return try client.readResponse()
    }

    /// Opens an SSE request and returns the client positioned at the start of the body.
    func openStream(_ target: String, headers: [String: String] = [:]) throws -> (RawHTTPClient, RawHTTPClient.Response) {
        let client = try RawHTTPClient(port: api.port, timeout: 10)
        try client.send(Self.request(target, headers: headers))
        return (client, try client.readResponse(forHead: true))
    }

    static func request(_ target: String, headers: [String: String]) -> String {
        var text = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return text + "\r\n"
    }
}

extension RawHTTPClient.Response {
    var jsonArray: [[String: Any]]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [[String: Any]]
    }
}
