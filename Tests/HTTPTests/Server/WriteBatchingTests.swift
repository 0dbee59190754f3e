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
