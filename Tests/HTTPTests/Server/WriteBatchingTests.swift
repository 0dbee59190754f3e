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
        let port = try XCTUnwrap(listener.localAddress()?.port)
        let address = try XCTUnwrap(SocketAddress.resolve(host: "127.0.0.1", port: port, passive: false).first)
        (peer, _) = try Socket.startConnect(to: address)
        var accepted: Socket?
        for _ in 0..<1_000 where accepted == nil {
            if case .accepted(let socket, _) = listener.accept() { accepted = socket }
        }
        let server = try XCTUnwrap(accepted, "loopback connect was not accepted")
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

    /// Reads the peer until `expected` bytes arrived, it closed, or 5 s passed (waiting in `poll`).
    private func readPeer(until expected: Int) -> String {
        var received: [UInt8] = []
        var waits = pollfd(fd: peer.descriptor, events: Int16(POLLIN), revents: 0)
        while received.count < expected, poll(&waits, 1, 5_000) > 0 {
            guard case .transferred(let n) = peer.read(into: buffer) else { break }
            received += buffer[0..<n]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Starts the stream with `handler` as its read handler: it runs in an epoll loop's turn.
    private func answerEachRead(with handler: @escaping (ByteStream) -> Void) {
        let stream = self.stream!
        loop.sync {
            stream.onRead = { _ in handler(stream) }
            stream.start()
        }
    }

    func testAnAnswerWrittenByAReadinessHandlerLeavesOnceTheTurnsHandlersRan() throws {
        let sentDuringHandler = DispatchSemaphore(value: 0)
        let peer = self.peer!, buffer = self.buffer
        nonisolated(unsafe) var seenByPeerDuringHandler = -1
        answerEachRead { stream in
            stream.write(Array("pong".utf8))
            // Loopback delivers a send at once: had it gone out, the peer could read it now.
            if case .transferred(let n) = peer.read(into: buffer) { seenByPeerDuringHandler = n } else { seenByPeerDuringHandler = 0 }
            sentDuringHandler.signal()
        }
        _ = Array("ping".utf8).withUnsafeBytes { peer.write($0) }
        XCTAssertEqual(sentDuringHandler.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(seenByPeerDuringHandler, 0, "the answer left before the turn's handlers were done")
        XCTAssertEqual(readPeer(until: 4), "pong")
    }

    func testAWriteFollowedByCloseInTheSameTurnStillReachesThePeer() {
        answerEachRead { stream in
            stream.write(Array("bye".utf8))
            stream.close()
        }
        _ = Array("ping".utf8).withUnsafeBytes { peer.write($0) }
        XCTAssertEqual(readPeer(until: 4), "bye", "the peer gets what was written before the close, then the end")
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
