// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import MetricsTestKit
import ProcessTestSupport
import XCTest
@testable import HTTP

/// HTTP/2 with real clients — curl (nghttp2 inside), nghttp, h2load and Python's h2 — on the port
/// that also serves HTTP/1.1: h2c with prior knowledge in cleartext, h2 by ALPN over TLS.
final class HTTP2ExchangeTests: XCTestCase {
    private func curl(_ arguments: [String]) throws -> ChildProcess.Completed {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            throw FrameClient.Missing(description: "curl is missing (apt-get install -y curl)")
        }
        return try ChildProcess.run("/usr/bin/curl", ["-sS", "--max-time", "20"] + arguments)
    }

    private func nghttp2Tool(_ name: String, _ arguments: [String]) throws -> ChildProcess.Completed {
        let path = "/usr/bin/\(name)"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw FrameClient.Missing(description: "\(name) is missing (apt-get install -y nghttp2-client; scripts/test installs it)")
        }
        return try ChildProcess.run(path, arguments)
    }

    func testCurlWithPriorKnowledgeGetsAnHTTP2Answer() throws {
        let server = try HTTP2TestServer()
        let result = try curl(["--http2-prior-knowledge", "-w", "\n%{http_version} %{response_code}", "http://127.0.0.1:\(server.port)/hello"])
        XCTAssertEqual(result.output, "hello\n2 200", result.errorOutput)
    }

    func testCurlPostsABodyOverHTTP2() throws {
        let server = try HTTP2TestServer()
        let result = try curl(["--http2-prior-knowledge", "--data-binary", "ping over h2", "http://127.0.0.1:\(server.port)/echo"])
        XCTAssertEqual(result.output, "ping over h2", result.errorOutput)
    }

    func testHTTP11StillAnswersOnTheSamePort() throws {
        let server = try HTTP2TestServer()
        let result = try curl(["--http1.1", "-w", "\n%{http_version}", "http://127.0.0.1:\(server.port)/hello"])
        XCTAssertEqual(result.output, "hello\n1.1")
    }

    func testWithHTTP2OffThePrefaceIsAnsweredAsHTTP11() throws {
        let server = try HTTP2TestServer { $0.http2Enabled = false }
        let client = try server.server.client()
        try client.send(String(decoding: HTTP2ConnectionStateMachine.preface, as: UTF8.self))
        let response = try client.readResponse()
        XCTAssertGreaterThanOrEqual(response.status, 400, "PRI * HTTP/2.0 is not an HTTP/1.1 request")
        XCTAssertTrue(server.events(.connectionOpened).isEmpty)
    }

    func testCurlOverTLSNegotiatesH2ByALPN() throws {
        let certificate = try SelfSignedCertificate(label: "h2-curl")
        defer { certificate.remove() }
        let server = try HTTP2TestServer(tls: certificate)
        let h2 = try curl(["--http2", "-k", "-w", "\n%{http_version}", "https://127.0.0.1:\(server.port)/hello"])
        XCTAssertEqual(h2.output, "hello\n2", h2.errorOutput)
        let h1 = try curl(["--http1.1", "-k", "-w", "\n%{http_version}", "https://127.0.0.1:\(server.port)/hello"])
        XCTAssertEqual(h1.output, "hello\n1.1", h1.errorOutput)
    }

    func testPythonH2ClientOverTLS() throws {
        let certificate = try SelfSignedCertificate(label: "h2-python")
        defer { certificate.remove() }
        let server = try HTTP2TestServer(tls: certificate)
        let result = try FrameClient.run("get", port: server.port, tls: true)
        XCTAssertEqual(result["status"] as? Int, 200)
        XCTAssertEqual(result["body"] as? String, "hello")
    }

    func testNghttpFetchesSeveralStreamsOnOneConnection() throws {
        let server = try HTTP2TestServer()
        let base = "http://127.0.0.1:\(server.port)"
        let result = try nghttp2Tool("nghttp", ["-n", "--stat", "\(base)/hello", "\(base)/big", "\(base)/users/octocat/avatar"])
        XCTAssertEqual(result.termination, .exited(0), result.output + result.errorOutput)
        XCTAssertEqual(server.events(.connectionOpened).count, 1)
        XCTAssertEqual(server.events(.streamOpened).count, 3)
    }

    func testH2loadRequestsAllSucceed() throws {
        let server = try HTTP2TestServer()
        let result = try nghttp2Tool("h2load", ["-n", "2000", "-c", "4", "-m", "10", "http://127.0.0.1:\(server.port)/hello"])
        XCTAssertTrue(result.output.contains("requests: 2000 total, 2000 started, 2000 done, 2000 succeeded, 0 failed, 0 errored"), result.output)
    }

    func testGzipAndRequestIDsApplyOverHTTP2() throws {
        let server = try HTTP2TestServer()
        let result = try curl(["--http2-prior-knowledge", "-D", "-", "-o", "/dev/null", "-H", "Accept-Encoding: gzip",
                               "-H", "X-Request-ID: abc-123", "http://127.0.0.1:\(server.port)/big"])
        let head = result.output.lowercased()
        XCTAssertTrue(head.hasPrefix("http/2 200"), head)
        XCTAssertFalse(head.contains("content-encoding: gzip"), "octet-stream is not compressible: \(head)")
        XCTAssertTrue(head.contains("x-request-id: abc-123"), head)
        XCTAssertFalse(head.contains("connection:"), "no connection-specific field over HTTP/2")
    }

    /// Starts a frame-client case that GETs /feed, and sends its first event once the stream watches the feed.
    private func startOnFeed(_ name: String, _ server: HTTP2TestServer) throws -> ChildProcess {
        let client = try FrameClient.start(name, port: server.port)
        let feed = server.feed
        waitUntil("the stream's body watched", timeout: 10) { feed.watcherCount == 1 }
        feed.data(Array("data: first\n\n".utf8))
        return client
    }

    func testClientCancelDisposesTheStreamsPipeline() throws {
        let server = try HTTP2TestServer()
        let client = try startOnFeed("cancel-stream", server)
        defer { client.terminate() }
        let feed = server.feed
        waitUntil("the stream's pipeline disposed by RST_STREAM(CANCEL)", timeout: 10) { feed.watcherCount == 0 }
        XCTAssertNotNil(client.wait(within: 10))
        XCTAssertTrue(client.output.contains("\"firstData\": \"data: first\\n\\n\""), client.output)
        XCTAssertEqual(server.events(.resetReceived).first?.code, .cancel)
    }

    func testGracefulShutdownEndsStreamsWithTheirTrailerAndGoAway() throws {
        let server = try HTTP2TestServer()
        let client = try startOnFeed("shutdown-wait", server)
        defer { client.terminate() }
        XCTAssertTrue(client.waitForOutput(within: 10) { $0.contains("ready") })
        server.server.stop()
        XCTAssertEqual(client.wait(within: 10), .exited(0))
        let report = try XCTUnwrap(client.output.split(separator: "\n").last)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
        XCTAssertEqual(result.goAwayCode, 0)
        XCTAssertEqual(result["body"] as? String, "data: first\n\nevent: bye\ndata: shutdown\n\n")
        XCTAssertEqual(result["ended"] as? [Int], [1])
    }

    func testAStreamUnansweredAtTheShutdownDeadlineGets503() throws {
        let server = try HTTP2TestServer()
        let curl = try ChildProcess("/usr/bin/curl", ["-sS", "--max-time", "20", "--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{http_version} %{response_code}",
                                                      "http://127.0.0.1:\(server.port)/never"])
        defer { curl.terminate() }
        let log = server.log
        waitUntil("the stream opened", timeout: 10) { log.events(.streamOpened).count == 1 }
        let stopped = DispatchSemaphore(value: 0)
        server.server.server.shutdown(deadline: .milliseconds(300)) { stopped.signal() }
        XCTAssertEqual(stopped.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(curl.wait(within: 10), .exited(0))
        XCTAssertEqual(curl.output, "2 503")
    }

    func testAStreamedBodyIsTheSameThroughASmallWindowAndALargeOne() throws {
        // The large window takes each chunk whole (the direct path of `enqueue`), the small one queues
        // every chunk and sends it in pieces as WINDOW_UPDATEs arrive (the general path): same bytes.
        let server = try HTTP2TestServer()
        let small = try FrameClient.run("flood-small-window", port: server.port)
        let large = try FrameClient.run("flood-large-window", port: server.port)
        let expected = 100 * 4096
        for result in [small, large] {
            XCTAssertEqual(result["status"] as? Int, 200, "\(result)")
            XCTAssertEqual(result["length"] as? Int, expected, "\(result)")
            XCTAssertEqual(result["ended"] as? Bool, true, "\(result)")
        }
        XCTAssertEqual(small["sha256"] as? String, large["sha256"] as? String)
        XCTAssertFalse(server.events(.flowControlStall).isEmpty, "the small window made the stream wait")
    }

    func testSlowConsumerPolicyResetsOnlyThatStream() throws {
        let server = try HTTP2TestServer { $0.limits.maxStreamBufferBytes = 64 * 1024 }
        let result = try FrameClient.run("slow-stream", port: server.port)
        XCTAssertEqual(result.reset(of: 1), Int(HTTP2ErrorCode.cancel.rawValue), "\(result)")
        XCTAssertEqual(result.status(of: 3), 200, "\(result)")
        XCTAssertNil(result.goAwayCode)
        XCTAssertTrue(server.events(.resetSent).contains { $0.reason?.contains("slow consumer") == true })
    }

    func testMetricsSplitRequestsAndConnectionsByProtocol() throws {
        let recorded = TestMetrics()
        let server = try HTTP2TestServer(metrics: HTTPMetrics(factory: recorded))
        _ = try curl(["--http2-prior-knowledge", "http://127.0.0.1:\(server.port)/hello"])
        _ = try curl(["--http1.1", "http://127.0.0.1:\(server.port)/hello"])
        let log = server.log
        waitUntil("both connections closed") { log.events(.connectionClosed).count == 1 }
        waitUntil("both requests counted") {
            recorded.counterTotal(label: HTTPProtocolMetrics.requestsName, dimensions: [("protocol", "h1")]) == 1
                && recorded.counterTotal(label: HTTPProtocolMetrics.requestsName, dimensions: [("protocol", "h2")]) == 1
        }
        XCTAssertEqual(try recorded.expectMeter(HTTPProtocolMetrics.streamsOpenName).lastValue, 0)
        XCTAssertEqual(try recorded.expectMeter(HTTPProtocolMetrics.connectionsName, [("protocol", "h2")]).lastValue, 0)
    }
}
