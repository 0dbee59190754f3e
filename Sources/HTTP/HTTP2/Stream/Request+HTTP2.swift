import NetCore

extension Request {
    /// The request an HTTP/2 stream carries, built as the HTTP/1.1 parser's is, so routes,
    /// middleware and handlers cannot tell the protocols apart except by `version`.
    init(http2 head: HTTP2RequestHead, body: [UInt8], id: String, remoteAddress: String, loopScheduler: EventLoopScheduler?) {
        var requestHead = RequestHead(
            method: HTTPMethod(head.method), target: head.path, version: .http2, headers: head.fields,
            contentLength: head.contentLength, isChunked: false, expectsContinue: false)
        requestHead.targetIsPath = false
        self.init(head: requestHead, body: body, id: id, remoteAddress: remoteAddress, loopScheduler: loopScheduler)
    }
}
