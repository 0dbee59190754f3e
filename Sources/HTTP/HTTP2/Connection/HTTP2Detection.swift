// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Which protocol a new connection speaks, from its first bytes: over TLS what ALPN agreed
/// (RFC 9113 §3.2), in cleartext whether it opens with HTTP/2's preface (h2c with prior
/// knowledge, §3.3). The deprecated `Upgrade: h2c` route (RFC 7540 §3.2) is not taken: such a
/// request is answered as the HTTP/1.1 request it also is.
enum HTTP2Detection {
    enum Decision: Equatable {
        case undecided
        case http1
        case http2
    }

    static func decide<Bytes: RandomAccessCollection>(_ bytes: Bytes, isTLS: Bool, alpn: String?) -> Decision
    where Bytes.Element == UInt8, Bytes.Index == Int {
        if isTLS { return alpn == "h2" ? .http2 : .http1 }
        let preface = HTTP2ConnectionStateMachine.preface
        let count = min(bytes.count, preface.count)
        for index in 0..<count where bytes[bytes.startIndex + index] != preface[index] { return .http1 }
        return count == preface.count ? .http2 : .undecided
    }
}
