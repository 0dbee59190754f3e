// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest

/// A loopback connection through `listener` (listening on 127.0.0.1): the connecting end and the
/// accepted end, for tests that drive a `ByteStream` over a real socket.
func loopbackPair(through listener: Socket) throws -> (peer: Socket, accepted: Socket) {
    let port = try XCTUnwrap(listener.localAddress()?.port)
    let address = try XCTUnwrap(SocketAddress.resolve(host: "127.0.0.1", port: port, passive: false).first)
    let (peer, _) = try Socket.startConnect(to: address)
    var accepted: Socket?
    for _ in 0..<1_000 where accepted == nil {
        if case .accepted(let socket, _) = listener.accept() { accepted = socket }
    }
    return (peer, try XCTUnwrap(accepted, "loopback connect was not accepted"))
}
