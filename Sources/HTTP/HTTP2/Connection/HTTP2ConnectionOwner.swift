// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// What an `HTTP2ConnectionStateMachine` asks of whoever owns its socket and answers its requests.
/// The machine calls these synchronously, in the order the frames ask for them: a request whose
/// END_STREAM arrives runs before the next frame of the same read is handled, as on a socket.
protocol HTTP2ConnectionOwner: AnyObject {
    /// Bytes handed to the socket and not yet taken by the kernel: DATA waits while they pile up.
    var socketBacklog: Int { get }
    /// A stream's request is complete (END_STREAM): its handler runs now.
    func startRequest(_ stream: HTTP2Stream)
    /// A stream is answered with a problem without its handler (408, 413, 431): the owner sends its
    /// head and body (`sendHeaders`, `enqueue`).
    func answerWithoutHandler(_ stream: HTTP2Stream, status: HTTPStatus, detail: String)
    /// A stream's answer is over: END_STREAM went out (`completed`), or the stream closed before it.
    func answerEnded(_ stream: HTTP2Stream, completed: Bool)
    /// A graceful shutdown began: a streamed response ends with its trailer.
    func endForShutdown(_ stream: HTTP2Stream)
    /// A stream's request body did not arrive within the body timeout.
    func bodyTimedOut(_ stream: HTTP2Stream, detail: String)
    func report(_ kind: HTTP2Event.Kind, streamID: UInt32, code: HTTP2ErrorCode?, reason: String?)
    /// Client role: a stream's final response head arrived (its body follows, then `answerEnded`).
    /// No default: an owner written for the earlier `status:fields:` form must not compile and
    /// then go uncalled. The head is the owner's (`consuming`): stored as given, not copied.
    func receivedResponseHead(_ stream: HTTP2Stream, _ head: consuming HTTP2ResponseHead)
    /// The connection is over: what the owner does with the socket once `output` is written.
    func close(_ how: HTTP2ConnectionClose)
}

enum HTTP2ConnectionClose: Equatable {
    /// A GOAWAY NO_ERROR is in the output: close once it is flushed.
    case afterFlush
    /// A connection error's GOAWAY is in the output: flush it, then close the way a refused
    /// HTTP/1.1 client is closed (`LingeringClose`), so a peer still sending reads the reason.
    case lingerAfterFlush
    /// Close now, for the reason given (the preface never came).
    case now(failure: String)
}
