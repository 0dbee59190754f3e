import Dispatch
import Streams

/// One request being answered on a connection: its handler subscription,
/// its streamed body subscription, and what the access log needs.
// @unchecked: confined to its connection's EventLoop queue, which serialises every access the way a lock would.
final class Exchange: @unchecked Sendable {
    let request: Request
    let startedAt: ContinuousClock.Instant
    /// What the request's head asked of the connection and named as its client, as the parser
    /// noted them (the request's own header list is not searched per exchange).
    let wantsKeepAlive: Bool
    let userAgent: String?
    var handlerSubscription: Disposable?
    var bodySubscription: Disposable?
    var responded = false
    var finished = false
    var status = 0
    var bodyBytes = 0
    var keepAlive = true
    var framing = ResponseWriter.StreamFraming.none
    var shutdownTrailer: [UInt8]?
    /// A streamed response's head, held until its body starts so both leave in one write.
    var pendingHead: [UInt8]?

    init(request: consuming Request, startedAt: ContinuousClock.Instant, wantsKeepAlive: Bool, userAgent: String?) {
        self.request = request
        self.startedAt = startedAt
        self.wantsKeepAlive = wantsKeepAlive
        self.userAgent = userAgent
    }

    var isStreaming: Bool { bodySubscription != nil }

    /// Cancels whatever upstream work the exchange still holds.
    func disposeSubscriptions() {
        handlerSubscription?.dispose()
        handlerSubscription = nil
        bodySubscription?.dispose()
        bodySubscription = nil
    }
}
