// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import CoreMetrics
import Synchronization

/// The protocol split of `HTTPMetrics` and what only HTTP/2 has:
///
/// - `http_protocol_requests_total{protocol}` (counter; `h1`, `h2`)
/// - `http_protocol_connections_open{protocol}` (gauge)
/// - `http2_streams_open` (gauge)
/// - `http2_resets_total{direction}`, `http2_goaways_total{direction}` (`received`, `sent`)
/// - `http2_flow_control_stalls_total`, `http2_limits_exceeded_total` (counters)
public final class HTTPProtocolMetrics: Sendable {
    /// `http_protocol_requests_total{protocol}`: requests answered, by ``HTTPProtocolLabel``.
    public static let requestsName = "http_protocol_requests_total"
    /// `http_protocol_connections_open{protocol}`: connections open now, by ``HTTPProtocolLabel``.
    public static let connectionsName = "http_protocol_connections_open"
    /// `http2_streams_open`: HTTP/2 streams open now, over all connections.
    public static let streamsOpenName = "http2_streams_open"
    /// `http2_resets_total{direction}`: RST_STREAM frames `received` and `sent`.
    public static let resetsName = "http2_resets_total"
    /// `http2_goaways_total{direction}`: GOAWAY frames `received` and `sent`.
    public static let goAwaysName = "http2_goaways_total"
    /// `http2_flow_control_stalls_total`: responses that waited for the client's flow-control window.
    public static let stallsName = "http2_flow_control_stalls_total"
    /// `http2_limits_exceeded_total`: clients that ran into a limit meant for abusive ones.
    public static let limitsName = "http2_limits_exceeded_total"

    private let h1Requests: Counter
    private let h2Requests: Counter
    private let h1Connections: Meter
    private let h2Connections: Meter
    private let streamsOpen: Meter
    private let resetsReceived: Counter
    private let resetsSent: Counter
    private let goAwaysReceived: Counter
    private let goAwaysSent: Counter
    private let stalls: Counter
    private let limitsExceeded: Counter
    /// All connections and the HTTP/2 ones (HTTP/1.1 is the rest), and open HTTP/2 streams.
    private let counts = Locked<(all: Int, h2: Int, streams: Int)>((0, 0, 0))

    init(factory: any MetricsFactory) {
        h1Requests = Counter(label: Self.requestsName, dimensions: [("protocol", "h1")], factory: factory)
        h2Requests = Counter(label: Self.requestsName, dimensions: [("protocol", "h2")], factory: factory)
        h1Connections = Meter(label: Self.connectionsName, dimensions: [("protocol", "h1")], factory: factory)
        h2Connections = Meter(label: Self.connectionsName, dimensions: [("protocol", "h2")], factory: factory)
        streamsOpen = Meter(label: Self.streamsOpenName, factory: factory)
        resetsReceived = Counter(label: Self.resetsName, dimensions: [("direction", "received")], factory: factory)
        resetsSent = Counter(label: Self.resetsName, dimensions: [("direction", "sent")], factory: factory)
        goAwaysReceived = Counter(label: Self.goAwaysName, dimensions: [("direction", "received")], factory: factory)
        goAwaysSent = Counter(label: Self.goAwaysName, dimensions: [("direction", "sent")], factory: factory)
        stalls = Counter(label: Self.stallsName, factory: factory)
        limitsExceeded = Counter(label: Self.limitsName, factory: factory)
        h1Connections.set(0)
        h2Connections.set(0)
        streamsOpen.set(0)
    }

    func record(_ request: CompletedRequest) {
        (request.protocolLabel == .h2 ? h2Requests : h1Requests).increment()
    }

    func connectionsChanged(to open: Int) {
        let (all, h2) = counts.withLock { counts in
            counts.all = open
            return (counts.all, counts.h2)
        }
        h1Connections.set(max(all - h2, 0))
    }

    func record(_ event: HTTP2Event) {
        switch event.kind {
        case .connectionOpened, .connectionClosed:
            let delta = event.kind == .connectionOpened ? 1 : -1
            let (all, h2) = counts.withLock { counts in
                counts.h2 += delta
                return (counts.all, counts.h2)
            }
            h2Connections.set(h2)
            h1Connections.set(max(all - h2, 0))
        case .streamOpened, .streamClosed:
            let delta = event.kind == .streamOpened ? 1 : -1
            streamsOpen.set(counts.withLock { counts in
                counts.streams += delta
                return counts.streams
            })
        case .resetReceived: resetsReceived.increment()
        case .resetSent: resetsSent.increment()
        case .goAwayReceived: goAwaysReceived.increment()
        case .goAwaySent: goAwaysSent.increment()
        case .flowControlStall: stalls.increment()
        case .limitExceeded: limitsExceeded.increment()
        }
    }
}
