// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamsTesting
import XCTest
@testable import HTTP

/// Seeded random frames from a hostile upstream against the client role's promises: every request
/// ends exactly once (answered or not), an answered one carries exactly the DATA of its stream,
/// nothing is sent after a connection error's GOAWAY, and the stream table and the streams' states
/// agree (the machine asserts it in debug builds on every `isOpen`).
final class HTTP2ClientRandomFramesTests: XCTestCase {
    func testRandomUpstreamFramesKeepTheClientsPromises() {
        var answered = 0, failedConnections = 0
        for seed in UInt64(1)...60 {
            let (completed, failed) = run(seed: seed, steps: 300)
            answered += completed
            failedConnections += failed ? 1 : 0
        }
        // The runs must both answer requests and break connections, or they check little.
        XCTAssertGreaterThan(answered, 10)
        XCTAssertGreaterThan(failedConnections, 5)
    }

    /// The frames read where their bytes lie (the fast path) against the same frames handed over
    /// as `HTTP2Frame`s (its slow twin): the same frames sent back, heads, endings and events.
    func testFramesReadInPlaceAgreeWithFramesHandedOverWhole() {
        for seed in UInt64(1)...30 {
            var inPlace: [String] = [], whole: [String] = []
            _ = run(seed: seed, steps: 300, transcript: &inPlace)
            _ = run(seed: seed, steps: 300, deliversFrames: true, transcript: &whole)
            XCTAssertSameTranscript(inPlace, whole, "seed \(seed)")
        }
    }

    private func run(seed: UInt64, steps: Int) -> (Int, Bool) {
        var transcript: [String] = []
        return run(seed: seed, steps: steps, transcript: &transcript)
    }

    private func run(seed: UInt64, steps: Int, deliversFrames: Bool = false, transcript: inout [String]) -> (Int, Bool) {
        var random = SeededRandom(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        var limits = HTTP2ConnectionLimits()
        limits.initialWindowSize = 8192
        limits.connectionWindowSize = 32_768
        let harness = HTTP2ClientMachineHarness.connected(limits: limits, maxBodyBytes: 20_000)
        harness.deliversFrames = deliversFrames
        var sentData: [UInt32: [UInt8]] = [:]
        var opened: [UInt32] = []
        var failedAt: Int?
        for step in 0..<steps {
            let open = harness.machine.streams.open.keys.sorted()
            // Any id (often a connection error) only in the second half, as GOAWAY below.
            let someStream = step > steps / 2 && Int.random(in: 0..<25, using: &random) == 0
                ? UInt32.random(in: 0...UInt32(opened.count * 2 + 2), using: &random) : open.randomElement(using: &random) ?? 1
            switch Int.random(in: 0..<24, using: &random) {
            case 0, 1:
                if let stream = harness.request() { opened.append(stream.id) }
            case 2, 3, 4, 5:
                let status = ["200", "200", "200", "204", "304", "103", "404", "abc"].randomElement(using: &random)!
                let length: [(name: String, value: String)] = Bool.random(using: &random) ? [("content-length", String(Int.random(in: 0...3000, using: &random)))] : []
                harness.respond(someStream, status: status, fields: length, endStream: Bool.random(using: &random))
            case 6, 7, 8, 9, 10, 11, 12:
                let bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: step), count: Int.random(in: 0...6000, using: &random))
                let end = Bool.random(using: &random)
                if harness.machine.streams[someStream]?.state.awaitsPeerHead == false { sentData[someStream, default: []] += bytes }
                harness.data(someStream, bytes, endStream: end)
            case 13:
                harness.send(HTTP2Frame(streamID: someStream, payload: .rstStream(Bool.random(using: &random) ? .refusedStream : .internalError)))
            case 14:
                // GOAWAY and a broken HPACK block end the run's requests: only in its second half.
                guard step > steps / 2 else { break }
                harness.send(HTTP2Frame(streamID: 0, payload: .goAway(lastStreamID: someStream, code: .noError, debugData: [])))
            case 15, 16:
                harness.send(HTTP2Frame(streamID: someStream, payload: .windowUpdate(increment: UInt32.random(in: 0...70_000, using: &random))))
            case 17:
                if let stream = harness.machine.streams[someStream] { harness.machine.cancel(stream) }
            case 18:
                guard step > steps / 2 else { break }
                harness.send(HTTP2Frame(streamID: someStream, flags: .endHeaders,
                                        payload: .headers(fragment: [UInt8](repeating: 0xFF, count: Int.random(in: 1...20, using: &random)), dependsOn: nil)))
            default:
                break
            }
            let frames = harness.output()
            transcript.append("step \(step): \(frames)")
            if let failedAt {
                XCTAssertTrue(frames.isEmpty, "seed \(seed) step \(step): frames after the connection error at step \(failedAt)")
            } else if frames.goAway.map({ $0 != .noError }) == true {
                failedAt = step
            }
        }
        transcript.append("ended: \(harness.ended.map { "\($0.id) \($0.completed) \($0.body.count)" })")
        transcript.append("heads: \(harness.heads.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.status) \($0.value.fields)" })")
        transcript.append("events: \(harness.events.map { "\($0.kind) \($0.streamID) \(String(describing: $0.code)) \($0.reason ?? "")" })")
        transcript.append("closes: \(harness.closes)")
        let ends = Dictionary(grouping: harness.ended, by: \.id)
        for (id, endings) in ends {
            XCTAssertEqual(endings.count, 1, "seed \(seed): stream \(id) ended \(endings.count) times")
            XCTAssertTrue(opened.contains(id), "seed \(seed): stream \(id) ended but was never opened")
        }
        var completed = 0
        for ending in harness.ended where ending.completed {
            completed += 1
            XCTAssertEqual(ending.body, sentData[ending.id] ?? [], "seed \(seed): stream \(ending.id)'s body is not its DATA")
        }
        return (completed, failedAt != nil)
    }
}
