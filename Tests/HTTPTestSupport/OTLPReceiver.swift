// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import ProcessTestSupport

/// A real OTLP/HTTP receiver for the tracing tests: Tests/OTLPReceiver/otlp_receiver.py, which
/// decodes with PyPI's opentelemetry-proto (not with the code under test), run by the Python of
/// `scripts/otlp-venv`. `answers` gives its first requests' statuses, e.g. `503,429:2` (a 503, then
/// a 429 with `Retry-After: 2`); the rest get 200.
public final class OTLPReceiver: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let port: Int
    private let process: ChildProcess
    private let outputFile: URL

    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The venv's python; a clear failure when scripts/otlp-venv has not made it.
    public static func python() throws -> String {
        let python = packageRoot.appendingPathComponent(".venv-otlp/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(description: "the OTLP receiver's Python is missing (\(python)): run scripts/otlp-venv (scripts/test does), which installs opentelemetry-proto from PyPI once")
        }
        return python
    }

    public init(answers: String = "", port: Int = 0) throws {
        outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("otlp-receiver-\(UUID().uuidString).jsonl")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let script = Self.packageRoot.appendingPathComponent("Tests/OTLPReceiver/otlp_receiver.py").path
        process = try ChildProcess(try Self.python(), [script, "--port", String(port), "--out", outputFile.path, "--answers", answers])
        guard process.waitForOutput(within: 20, until: { $0.contains("listening ") }),
            let line = process.output.split(separator: "\n").first(where: { $0.hasPrefix("listening ") }),
            let port = Int(line.dropFirst("listening ".count))
        else {
            process.terminate()
            throw Failure(description: "the OTLP receiver did not start: \(process.errorOutput.suffix(500))")
        }
        self.port = port
    }

    deinit {
        process.terminate()
        try? FileManager.default.removeItem(at: outputFile)
    }

    /// Stops the receiver now (a collector that goes away).
    public func stop() { process.terminate() }

    /// Freezes it (SIGSTOP): connections are accepted by the kernel and never answered.
    public func pause() { process.signal(SIGSTOP) }

    public func resume() { process.signal(SIGCONT) }

    /// `http://127.0.0.1:PORT` (OTEL_EXPORTER_OTLP_ENDPOINT).
    public var endpoint: String { "http://127.0.0.1:\(port)" }
    /// `…/v1/traces`.
    public var tracesURL: String { endpoint + "/v1/traces" }

    /// Every request received so far, in order.
    public var requests: [Request] {
        guard let text = try? String(contentsOf: outputFile, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }

    /// The spans of every request answered 200, in order.
    public var spans: [Span] {
        requests.filter { $0.status == 200 }.flatMap { ($0.resource_spans ?? []).flatMap(\.spans) }
    }

    // Field names as the receiver writes them.
    public struct Request: Decodable, Sendable {
        public let request: Int
        public let path: String
        public let status: Int
        public let content_type: String?
        public let content_encoding: String?
        public let headers: [String: String]
        public let body_bytes: Int
        public let error: String?
        public let resource_spans: [ResourceSpans]?
    }

    public struct ResourceSpans: Decodable, Sendable {
        public let resource: [String: Value]
        public let scope: [String: String]
        public let spans: [Span]
    }

    public struct Span: Decodable, Sendable {
        public let trace_id: String
        public let span_id: String
        /// Empty for a root span.
        public let parent_span_id: String
        public let trace_state: String
        public let flags: Int
        public let name: String
        /// OTLP's numbers: 1 internal, 2 server, 3 client, 4 producer, 5 consumer.
        public let kind: Int
        public let start: UInt64
        public let end: UInt64
        public let attributes: [String: Value]
        public let events: [Event]
        public let links: [Link]
        public let status: Status
    }

    public struct Event: Decodable, Sendable {
        public let name: String
        public let time: UInt64
        public let attributes: [String: Value]
    }

    public struct Link: Decodable, Sendable {
        public let trace_id: String
        public let span_id: String
        public let attributes: [String: Value]
    }

    public struct Status: Decodable, Sendable {
        /// 0 unset, 1 ok, 2 error.
        public let code: Int
        public let message: String
    }

    /// An attribute's value as decoded by the receiver.
    public enum Value: Decodable, Sendable, Equatable {
        case string(String), int(Int), double(Double), bool(Bool), array([Value])

        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) { self = .bool(value) }
            else if let value = try? container.decode(Int.self) { self = .int(value) }
            else if let value = try? container.decode(Double.self) { self = .double(value) }
            else if let value = try? container.decode(String.self) { self = .string(value) }
            else { self = .array(try container.decode([Value].self)) }
        }
    }
}
