// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamsTesting
import XCTest
@testable import HTTP

/// Seeded random frame sequences, valid and not, against the invariants the protocol promises
/// whatever the peer does: DATA never beyond a window the peer granted, no frame after a
/// connection error's GOAWAY or after the close, never more than MAX_CONCURRENT_STREAMS open.
final class HTTP2RandomFramesTests: XCTestCase {
    /// The client's view of what it granted: the server may send no more DATA than this.
    private struct GrantedWindows {
        var connection = 65_535
        var initial = 65_535
        var streams: [UInt32: Int] = [:]

        mutating func check(_ frame: HTTP2Frame, seed: UInt64, step: Int) {
            guard case .data = frame.payload, frame.flowControlledLength > 0 else { return }
            let length = frame.flowControlledLength
            let stream = streams[frame.streamID, default: initial]
            XCTAssertGreaterThanOrEqual(connection - length, 0, "seed \(seed) step \(step): DATA beyond the connection window")
            XCTAssertGreaterThanOrEqual(stream - length, 0, "seed \(seed) step \(step): DATA beyond stream \(frame.streamID)'s window")
            connection -= length
            streams[frame.streamID] = stream - length
        }
    }

    func testRandomFramesKeepTheInvariants() {
        var stalls = 0, dataFrames = 0
        for seed in UInt64(1)...40 {
            let (stalled, data) = run(seed: seed, steps: 400)
            stalls += stalled
            dataFrames += data
        }
        // The runs must reach the windows, or they check nothing about them.
        XCTAssertGreaterThan(stalls, 10)
        XCTAssertGreaterThan(dataFrames, 100)
    }

    /// The frames read where their bytes lie (the fast path) against the same frames handed over
    /// as `HTTP2Frame`s (its slow twin): the same frames sent back and the same events.
    func testFramesReadInPlaceAgreeWithFramesHandedOverWhole() {
        for seed in UInt64(1)...20 {
            var inPlace: [String] = [], whole: [String] = []
            _ = run(seed: seed, steps: 400, transcript: &inPlace)
            _ = run(seed: seed, steps: 400, deliversFrames: true, transcript: &whole)
            XCTAssertSameTranscript(inPlace, whole, "seed \(seed)")
        }
    }

    /// Returns the flow-control stalls and the DATA frames the run produced.
    private func run(seed: UInt64, steps: Int) -> (Int, Int) {
        var transcript: [String] = []
        return run(seed: seed, steps: steps, transcript: &transcript)
    }

    private func run(seed: UInt64, steps: Int, deliversFrames: Bool = false, transcript: inout [String]) -> (Int, Int) {
        var random = SeededRandom(seed: seed &* 0x9E37_79B9_7F4A_7C15)
        var limits = HTTP2ConnectionLimits()
        limits.maxConcurrentStreams = 8
        let harness = HTTP2MachineHarness.connected(limits: limits, maxBodyBytes: 4096)
        harness.deliversFrames = deliversFrames
        var granted = GrantedWindows()
        harness.request(1)
        granted.streams[1] = granted.initial
        var nextID: UInt32 = 3
        var failedAt: Int?
        var dataFrames = 0
        var closedAt: Int?
        for step in 0..<steps {
            harness.answerBody = Array(repeating: 0x61, count: Int.random(in: 0...40_000, using: &random))
            harness.answers = Bool.random(using: &random)
            harness.socketBacklog = Int.random(in: 0..<10, using: &random) == 0 ? 2 << 20 : 0
            let open = harness.machine.streams.open.keys.sorted()
            // Mostly an open stream, else one opened before; now and then any id, which may be a connection error.
            let anyID = Int.random(in: 0..<30, using: &random) == 0
            let someStream = anyID ? UInt32.random(in: 0...nextID, using: &random) : open.randomElement(using: &random) ?? max(nextID, 3) - 2
            switch Int.random(in: 0..<14, using: &random) {
            case 0, 1:
                granted.streams[nextID] = granted.initial
                harness.request(nextID, method: Bool.random(using: &random) ? "GET" : "POST", endStream: Bool.random(using: &random))
                nextID += 2
            case 2:
                guard anyID || open.contains(someStream) else { break }
                let bytes = [UInt8](repeating: 1, count: Int.random(in: 0...3000, using: &random))
                harness.send(HTTP2Frame(streamID: someStream, flags: Bool.random(using: &random) ? .endStream : [], payload: .data(bytes)))
            case 3:
                let increment = UInt32.random(in: 0...70_000, using: &random)
                harness.send(HTTP2Frame(streamID: 0, payload: .windowUpdate(increment: increment)))
                if increment > 0 { granted.connection += Int(increment) }
            case 4, 5:
                let increment = UInt32.random(in: 0...70_000, using: &random)
                harness.send(HTTP2Frame(streamID: someStream, payload: .windowUpdate(increment: increment)))
                if someStream != 0 { granted.streams[someStream, default: granted.initial] += Int(increment) }
                else if increment > 0 { granted.connection += Int(increment) }
            case 6:
                let size = Int.random(in: 0...20_000, using: &random)
                harness.send(HTTP2Frame(streamID: 0, payload: .settings([HTTP2Setting(.initialWindowSize, UInt32(size))])))
                let delta = size - granted.initial
                granted.initial = size
                for id in granted.streams.keys { granted.streams[id]! += delta }
            case 7:
                harness.send(HTTP2Frame(streamID: someStream, payload: .rstStream(.cancel)))
            case 8:
                harness.send(HTTP2Frame(streamID: 0, payload: .ping(Array(repeating: 0, count: 8))))
            case 9:
                harness.send(HTTP2Frame(streamID: someStream, payload: .priority(dependsOn: UInt32.random(in: 0...nextID, using: &random))))
            case 10:
                if Int.random(in: 0..<100, using: &random) == 0 {
                    harness.send(HTTP2Frame(streamID: someStream, flags: .endHeaders, payload: .continuation(fragment: [0x82])))
                }
            case 11:
                harness.now += UInt64.random(in: 0...40, using: &random) * 1_000_000_000
                harness.machine.tick(now: harness.now, timeouts: HTTPTimeouts())
            case 12:
                if Int.random(in: 0..<4, using: &random) == 0 { harness.machine.beginShutdown() }
                harness.machine.flushWaiting()
            default:
                if Int.random(in: 0..<20, using: &random) == 0 {
                    harness.machine.closed()
                    closedAt = closedAt ?? step
                }
            }
            let frames = harness.output()
            transcript.append("step \(step): \(frames)")
            if let failedAt { XCTAssertEqual(frames, [], "seed \(seed) step \(step): frames after the connection error of step \(failedAt)") }
            if let closedAt { XCTAssertEqual(frames, [], "seed \(seed) step \(step): frames after the close of step \(closedAt)") }
            for frame in frames { granted.check(frame, seed: seed, step: step) }
            dataFrames += frames.count { $0.type == .data }
            if harness.machine.phase == .failed { failedAt = failedAt ?? step }
            XCTAssertLessThanOrEqual(harness.machine.streams.count, limits.maxConcurrentStreams, "seed \(seed) step \(step)")
            XCTAssertGreaterThanOrEqual(harness.machine.sender.window.value, 0, "seed \(seed) step \(step): the connection's send window")
            for stream in harness.machine.streams.open.values {
                XCTAssertLessThanOrEqual(stream.receiveWindow.value, limits.initialWindowSize, "seed \(seed) step \(step)")
                XCTAssertGreaterThanOrEqual(stream.receiveWindow.value, 0, "seed \(seed) step \(step): stream \(stream.id)'s receive window")
            }
        }
        transcript.append("events: \(harness.events.map { "\($0.kind) \($0.streamID) \(String(describing: $0.code)) \($0.reason ?? "")" })")
        return (harness.events(.flowControlStall).count, dataFrames)
    }
}
