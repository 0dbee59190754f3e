// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamsTesting
import XCTest
@testable import HTTP

/// The stream table's slots (its fast path) and overflow against a plain dictionary by id, and its
/// ring of endings against a list of the last ones.
final class HTTP2StreamTableTests: XCTestCase {
    private func stream(_ id: UInt32) -> HTTP2Stream {
        HTTP2Stream(id: id, state: .idle, receiveWindow: 65_535, sendWindow: 65_535)
    }

    /// Streams opened with increasing odd ids, some closed soon, some left open for long (they
    /// collide with newer ones and go to the overflow), ids skipped now and then.
    func testSlotsAndOverflowAnswerAsADictionaryByID() {
        var random = SeededRandom(seed: 3_861)
        var table = HTTP2StreamTable(memory: 64)
        var expected: [UInt32: HTTP2Stream] = [:]
        var endings: [(UInt32, HTTP2StreamEnding)] = []
        var next: UInt32 = 1
        for step in 0..<20_000 {
            if expected.count < 300 && Int.random(in: 0..<3, using: &random) != 0 {
                next += Int.random(in: 0..<10, using: &random) == 0 ? 2 * UInt32.random(in: 1...400, using: &random) : 2
                let opened = stream(next)
                table.insert(opened)
                expected[next] = opened
            } else if let victim = expected.values.randomElement(using: &random) {
                // Old streams leave less often, so that some stay open across many newer ones.
                if next > 600 && victim.id < next - 600 && Int.random(in: 0..<4, using: &random) != 0 { continue }
                let ending = [HTTP2StreamEnding.ended, .resetByPeer, .resetLocally][step % 3]
                XCTAssertTrue(table.remove(victim, as: ending))
                XCTAssertFalse(table.remove(victim, as: ending), "removed twice")
                expected[victim.id] = nil
                endings.append((victim.id, ending))
            }
            let probe = UInt32.random(in: 0...next + 4, using: &random) | 1
            XCTAssertTrue(table[probe] === expected[probe], "step \(step), stream \(probe)")
            XCTAssertEqual(table.count, expected.count)
        }
        XCTAssertEqual(table.ordered.map(\.id), expected.keys.sorted())
        XCTAssertEqual(Set(table.open.keys), Set(expected.keys))
        // The last 64 endings are remembered, the newest note of an id winning.
        let remembered = endings.suffix(64)
        for (id, _) in endings.suffix(200) {
            let ending = remembered.last { $0.0 == id }?.1
            switch ending {
            case nil, .resetLocally?: XCTAssertEqual(try table.ignoresClosed(id, frame: "DATA"), ending != nil, "stream \(id)")
            case .resetByPeer?, .ended?: XCTAssertThrowsError(try table.ignoresClosed(id, frame: "DATA"), "stream \(id)")
            }
        }
    }

    func testASecondNoteOfAStreamsEndIsTheOneFound() throws {
        var table = HTTP2StreamTable(memory: 4)
        table.remember(7, as: .resetByPeer)
        table.remember(7, as: .resetLocally)
        XCTAssertTrue(try table.ignoresClosed(7, frame: "DATA"))
        for id: UInt32 in [9, 11, 13, 15] { table.remember(id, as: .ended) }
        XCTAssertFalse(try table.ignoresClosed(7, frame: "DATA"), "forgotten after four newer endings")
    }
}
