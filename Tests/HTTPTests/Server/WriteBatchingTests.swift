// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import NetCore
import XCTest

/// `EventLoop.batchingWrites` over a real loopback connection.
final class WriteBatchingTests: XCTestCase {
    private var listener: Socket!
    private var peer: Socket!
    private var stream: ByteStream!
    private let loop = EventLoop(label: "test.batching")
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)

    override func setUpWithError() throws {
        listener = try Socket.listen(host: "127.0.0.1", port: 0, backlog: 4)
        let server: Socket
        (peer, server) = try loopbackPair(through: listener)
        stream = ByteStream(socket: server, loop: loop, remoteAddress: "test")
    }

    override func tearDown() {
        loop.sync { stream.close() }
        peer.close()
        listener.close()
        buffer.deallocate()
    }

    /// What the peer can read right now, without waiting.
    private func readableNow() -> String {
        guard case .transferred(let n) = peer.read(into: buffer) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[0..<n]), as: UTF8.self)
    }

    func testWritesOutsideABatchLeaveAtOnce() {
        loop.sync {
            stream.write(Array("now".utf8))
            XCTAssertEqual(readableNow(), "now")
        }
    }

    func testWritesInsideABatchLeaveTogetherWhenItEnds() {
        loop.sync {
            loop.batchingWrites {
                stream.write(Array("head,".utf8))
                stream.write(Array("body".utf8))
                XCTAssertEqual(readableNow(), "", "nothing is sent before the batch ends")
            }
            XCTAssertEqual(readableNow(), "head,body")
        }
    }

    func testWorkKeptForTheBatchEndRunsBeforeTheHeldOutputLeavesAndJoinsIt() {
        loop.sync {
            var ran = false
            loop.batchingWrites {
                stream.write(Array("held,".utf8))
                let kept = loop.whenBatchEnds {
                    ran = true
                    self.stream.write(Array("gathered".utf8))
                }
                XCTAssertTrue(kept)
                XCTAssertFalse(ran, "the work waits for the batch's end")
            }
            XCTAssertTrue(ran)
            XCTAssertEqual(readableNow(), "held,gathered", "the held bytes first, then what the work wrote")
        }
    }

    func testOutsideABatchNoWorkIsKept() {
        loop.sync {
            XCTAssertFalse(loop.whenBatchEnds { XCTFail("kept outside a batch") })
        }
    }

    /// A second loopback connection: the client end and the server end as a stream on `loop`.
    private func connectedPair() throws -> (peer: Socket, stream: ByteStream) {
        let (client, accepted) = try loopbackPair(through: listener)
        return (client, ByteStream(socket: accepted, loop: loop, remoteAddress: "test"))
    }

    /// Reads `peer` until `expected` bytes arrived, it closed, or 5 s passed (waiting in `poll`).
    private func read(_ peer: Socket, until expected: Int) -> String {
        var received: [UInt8] = []
        var waits = pollfd(fd: peer.descriptor, events: Int16(POLLIN), revents: 0)
        while received.count < expected, poll(&waits, 1, 5_000) > 0 {
            guard case .transferred(let n) = peer.read(into: buffer) else { break }
            received += buffer[0..<n]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Makes both streams readable in one turn of the loop: the loop is held in a task while both
    /// peers send, so its next `epoll_wait` finds both ready. `handler` runs for each, in that turn.
    private func readableInOneTurn(_ pairs: [(peer: Socket, stream: ByteStream)], handler: @escaping (ByteStream, Socket) -> Void) {
        loop.sync {
            for pair in pairs {
                let (peer, stream) = pair
                stream.onRead = { _ in handler(stream, peer) }
                stream.start()
            }
        }
        let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        loop.execute {
            held.signal()
            release.wait()
        }
        held.wait()
        for pair in pairs { _ = Array("ping".utf8).withUnsafeBytes { pair.peer.write($0) } }
        release.signal()
    }

    func testAnswersWrittenInATurnLeaveOnceEveryHandlerOfTheTurnRan() throws {
        let second = try connectedPair()
        defer { loop.sync { second.stream.close() }; second.peer.close() }
        let buffer = self.buffer
        let handled = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var readableDuringTurn: [Int] = []
        readableInOneTurn([(peer, stream), second]) { stream, peer in
            stream.write(Array("pong".utf8))
            // Loopback delivers a send at once: had an answer gone out, its peer could read it now.
            if case .transferred(let n) = peer.read(into: buffer) { readableDuringTurn.append(n) } else { readableDuringTurn.append(0) }
            handled.signal()
        }
        for _ in 0..<2 { XCTAssertEqual(handled.wait(timeout: .now() + 5), .success) }
        XCTAssertEqual(readableDuringTurn, [0, 0], "an answer left before the turn's handlers were done")
        XCTAssertEqual(read(peer, until: 4), "pong")
        XCTAssertEqual(read(second.peer, until: 4), "pong")
    }

    func testAWriteFollowedByCloseInTheSameTurnStillReachesThePeer() throws {
        let second = try connectedPair()
        defer { second.peer.close() }
        readableInOneTurn([(peer, stream), second]) { stream, _ in
            stream.write(Array("bye".utf8))
            stream.close()
        }
        XCTAssertEqual(read(peer, until: 4), "bye", "what was written before the close, then the end")
        XCTAssertEqual(read(second.peer, until: 4), "bye", "what was written before the close, then the end")
    }

    func testAnAnswerAloneInItsTurnLeavesAtOnce() {
        nonisolated(unsafe) var readableDuringTurn = -1
        let handled = DispatchSemaphore(value: 0)
        let buffer = self.buffer
        readableInOneTurn([(peer, stream)]) { stream, peer in
            stream.write(Array("pong".utf8))
            if case .transferred(let n) = peer.read(into: buffer) { readableDuringTurn = n } else { readableDuringTurn = 0 }
            handled.signal()
        }
        XCTAssertEqual(handled.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(readableDuringTurn, 4, "with nothing else in the turn there is nothing to wait for")
    }

    func testCloseAfterFlushInsideABatchSendsEverythingThenCloses() {
        loop.sync {
            loop.batchingWrites {
                stream.write(Array("last".utf8))
                stream.closeAfterFlush()
                XCTAssertFalse(stream.isClosed)
            }
            XCTAssertTrue(stream.isClosed)
            XCTAssertEqual(readableNow(), "last")
        }
    }
}
