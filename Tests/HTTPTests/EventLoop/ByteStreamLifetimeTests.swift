// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import NetCore
import XCTest

/// A `ByteStream`'s readiness handlers refer to it unretained (no weak reference: see `Unretained`):
/// however a stream ends, nothing keeps it alive and its descriptor is closed, over a real loopback
/// connection.
final class ByteStreamLifetimeTests: XCTestCase {
    private let loop = EventLoop(label: "test.stream-lifetime")
    private var listener: Socket!
    private var peer: Socket!
    private var accepted: Socket!
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)

    override func setUpWithError() throws {
        listener = try Socket.listen(host: "127.0.0.1", port: 0, backlog: 4)
        (peer, accepted) = try loopbackPair(through: listener)
    }

    override func tearDown() {
        peer.close()
        listener.close()
        buffer.deallocate()
    }

    /// A stream of the accepted socket, started on the loop.
    private func startedStream() -> ByteStream {
        let stream = ByteStream(socket: accepted, loop: loop, remoteAddress: "test")
        loop.sync { stream.start() }
        return stream
    }

    /// Waits until the loop has finished what it is running and what is queued behind it (a cancelled
    /// source's handler runs on a later turn): twice, as that handler is queued by the first.
    private func drainLoop() {
        loop.sync {}
        loop.sync {}
    }

    /// The peer sees the connection closed: the stream's descriptor was closed.
    private func peerSeesClose() -> Bool {
        peer.read(into: buffer) == .closed
    }

    func testAStreamClosedByThePeerIsFreed() {
        weak var released: ByteStream?
        let closed = expectation(description: "closed")
        // Its owner keeps it until it closes, as a server connection does.
        let owner = Locked<ByteStream?>(nil)
        do {
            let stream = ByteStream(socket: accepted, loop: loop, remoteAddress: "test")
            released = stream
            owner.withLock { $0 = stream }
            loop.sync {
                stream.onClose = { _ in
                    owner.withLock { $0 = nil }
                    closed.fulfill()
                }
                stream.start()
            }
        }
        peer.shutdownWrite()
        wait(for: [closed], timeout: 5)
        drainLoop()
        XCTAssertNil(released)
    }

    func testAStreamWeCloseIsFreedAndClosesItsSocket() {
        weak var released: ByteStream?
        do {
            let stream = startedStream()
            released = stream
            loop.sync { stream.close() }
        }
        drainLoop()
        XCTAssertNil(released)
        XCTAssertTrue(peerSeesClose())
    }

    func testAStreamNeverStartedIsFreedAndClosesItsSocket() {
        weak var released: ByteStream?
        do {
            let stream = ByteStream(socket: accepted, loop: loop, remoteAddress: "test")
            released = stream
        }
        XCTAssertNil(released)
        XCTAssertTrue(peerSeesClose())
    }

    func testAStreamDroppedOnItsLoopWithoutCloseIsFreedAndClosesItsSocket() {
        weak var released: ByteStream?
        let holder = Locked<ByteStream?>(nil)
        holder.withLock { $0 = startedStream() }
        released = holder.withLock { $0 }
        loop.sync { holder.withLock { $0 = nil } }
        drainLoop()
        XCTAssertNil(released)
        XCTAssertTrue(peerSeesClose())
    }

    func testAStreamDroppedOffItsLoopWithoutCloseIsFreedAndClosesItsSocket() {
        weak var released: ByteStream?
        do {
            let stream = startedStream()
            released = stream
        }
        XCTAssertNil(released)
        drainLoop()
        XCTAssertTrue(peerSeesClose())
    }

    func testAStreamWhoseOwnerDropsItFromItsReadHandlerLivesUntilTheHandlerReturns() {
        weak var released: ByteStream?
        let holder = Locked<ByteStream?>(nil)
        let read = expectation(description: "read")
        do {
            let stream = startedStream()
            released = stream
            holder.withLock { $0 = stream }
            loop.sync {
                stream.onRead = { _ in
                    // The last owner goes in the middle of the read handler, without a close.
                    holder.withLock { $0 = nil }
                    read.fulfill()
                }
            }
        }
        _ = Array("x".utf8).withUnsafeBytes { peer.write($0) }
        wait(for: [read], timeout: 5)
        drainLoop()
        XCTAssertNil(released)
        XCTAssertTrue(peerSeesClose())
    }

    func testAStreamWithBufferedOutputDroppedWithoutCloseIsFreed() {
        weak var released: ByteStream?
        do {
            let stream = startedStream()
            released = stream
            // More than the socket takes at once: the rest waits for the write source.
            loop.sync { stream.write([UInt8](repeating: 0x61, count: 8 << 20)) }
            XCTAssertGreaterThan(loop.sync { stream.bufferedByteCount }, 0)
        }
        drainLoop()
        XCTAssertNil(released)
    }
}
