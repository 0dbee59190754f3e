// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What an HTTP/2 connection of this server allows its peer, and what it sends in its SETTINGS.
///
/// Set through ``HTTPServerConfiguration/http2``; the defaults follow RFC 9113 and the protections
/// against the known HTTP/2 floods (rapid reset, CONTINUATION, control frames).
public struct HTTP2ConnectionLimits: Sendable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS: RFC 9113 §6.5.2 recommends no fewer than 100.
    public var maxConcurrentStreams = 100
    /// SETTINGS_INITIAL_WINDOW_SIZE for request bodies; the protocol default.
    public var initialWindowSize = 65_535
    /// The connection's receive window, opened with a WINDOW_UPDATE after the preface: 1 MiB, so
    /// several streams' uploads do not wait on the 64 KiB default.
    public var connectionWindowSize = 1 << 20
    /// SETTINGS_MAX_FRAME_SIZE this side accepts; the protocol default.
    public var maxFrameSize = 16_384
    /// SETTINGS_MAX_HEADER_LIST_SIZE; a larger list is answered 431 (the HPACK bomb stops here).
    public var maxHeaderListSize = 64 * 1024
    /// The most CONTINUATION frames one header block may take: 64 × 16 KiB frames is far above
    /// `maxHeaderListSize`; a flood of them (CVE-2024-27316) ends in GOAWAY ENHANCE_YOUR_CALM.
    public var maxContinuationFrames = 64
    /// Control and empty frames a connection may send in a burst, beyond which it is answered
    /// GOAWAY ENHANCE_YOUR_CALM.
    public var controlFrameBurst = 1_000
    /// Control and empty frames a connection may send per second once its burst is spent.
    public var controlFramesPerSecond = 200
    /// Streams a client may reset before their response is complete, in a burst (rapid reset,
    /// CVE-2023-44487, ends in GOAWAY ENHANCE_YOUR_CALM).
    public var resetBurst = 200
    /// Streams a client may reset before their response is complete, per second once its burst is spent.
    public var resetsPerSecond = 100
    /// Bytes queued on the socket beyond which DATA waits for it to drain (per connection), and
    /// beyond which control frames the peer provokes (PING and SETTINGS acknowledgements, resets)
    /// end the connection instead: a peer that does not read cannot grow this side's memory.
    public var maxConnectionBufferedBytes = 1 << 20
    /// Response bytes a stalled stream must send before its write-timeout clock starts again: one
    /// DATA frame of the protocol's default size. A reader that reads opens its window by at least
    /// that much within a write timeout (clients return half their window at a time); one that opens
    /// it 128 bytes every 20 s keeps the stream stalled in effect, and is reset when it times out.
    public var stallProgressBytes = 16_384
    /// Streams whose end is remembered so a late frame on them gets RFC 9113 §5.1's answer.
    public var closedStreamMemory = 256

    /// The defaults above.
    public init() {}
}
