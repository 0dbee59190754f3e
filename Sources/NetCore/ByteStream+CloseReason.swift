// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension ByteStream.CloseReason: CustomStringConvertible {
    /// Words for messages people read (problem details, logs), never the case's name.
    public var description: String {
        switch self {
        case .local: "closed on this side"
        case .peerClosed: "the peer closed the connection"
        case .failed(let reason): reason
        }
    }
}
