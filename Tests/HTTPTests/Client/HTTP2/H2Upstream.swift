// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import ProcessTestSupport
import StreamServiceConcurrency
import Streams
import XCTest
@testable import HTTP

/// `Tests/HTTP2Clients/h2_upstream.py` running in one of its modes: a cleartext HTTP/2 upstream that
/// misbehaves on purpose, and the events it printed (requests, resets and GOAWAYs it received).
final class H2Upstream {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    let process: ChildProcess
    let port: Int

    init(_ mode: String, _ argument: String? = nil) throws {
        try FrameClient.requireInstalled()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("HTTP2Clients/h2_upstream.py").path
        process = try ChildProcess(FrameClient.python, [script, mode] + (argument.map { [$0] } ?? []))
        guard process.waitForOutput(within: 10, until: { $0.contains("listening") }),
              let line = Self.lines(process.output).first(where: { $0["event"] as? String == "listening" }),
              let port = line["port"] as? Int else {
            process.terminate()
            throw Failed(description: "h2_upstream.py \(mode) did not start: \(process.output) \(process.errorOutput)")
        }
        self.port = port
    }

    deinit { process.terminate() }

    var url: String { "http://127.0.0.1:\(port)" }

    /// The events named `name` printed so far.
    func events(_ name: String) -> [[String: Any]] { Self.lines(process.output).filter { $0["event"] as? String == name } }

    /// Waits (bounded) until an event named `name` was printed `count` times. The upstream prints
    /// a request before it answers, but its output reaches this process by a reader of its own:
    /// an answer can arrive before the line that announced it has been read.
    @discardableResult
    func waitFor(_ name: String, count: Int = 1, within timeout: TimeInterval = 5) -> Bool {
        let mark = "\"event\": \"\(name)\""
        return process.waitForOutput(within: timeout) { $0.components(separatedBy: mark).count - 1 >= count }
    }

    private static func lines(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}

extension XCTestCase {
    /// Sends `request` and waits (bounded) for its outcome.
    func outcome(of request: HTTPClientRequest, via client: HTTPClient, timeout: TimeInterval = 10) -> Result<HTTPClientResponse, HTTPClientError> {
        outcomes(of: [request], via: client, timeout: timeout)[0]
    }

    /// Sends all of `requests` at once and waits (bounded) for every outcome, in the requests' order.
    func outcomes(of requests: [HTTPClientRequest], via client: HTTPClient, timeout: TimeInterval = 10) -> [Result<HTTPClientResponse, HTTPClientError>] {
        let results = Locked([Int: Result<HTTPClientResponse, HTTPClientError>]())
        let done = expectation(description: "\(requests.count) answers")
        done.expectedFulfillmentCount = requests.count
        let bag = DisposeBag()
        for (index, request) in requests.enumerated() {
            client.send(request).watch(
                data: { response in results.withLock { $0[index] = .success(response) } },
                error: { error in
                    results.withLock { $0[index] = .failure(error as? HTTPClientError ?? .connection("\(error)")) }
                    done.fulfill()
                },
                end: { done.fulfill() }
            ).disposed(by: bag)
        }
        wait(for: [done], timeout: timeout)
        return results.withLock { results in
            requests.indices.map { results[$0] ?? .failure(.connection("no answer within \(timeout) s")) }
        }
    }
}
