// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch
import NetCore

/// One HTTP/2 connection to an upstream origin: a client-role `HTTP2ConnectionStateMachine` over a
/// `ByteStream`, an exchange per stream. Everything here runs on the connection's loop. Answers and
/// retries are handed out after the machine has handled the read (`afterInput`), so a caller that
/// reacts to its answer by cancelling another request never re-enters the machine.
// @unchecked: confined to its connection's EventLoop queue, which serialises every access the way a lock would.
final class HTTP2ClientConnection: HTTP2ConnectionOwner, @unchecked Sendable {
    let stream: ByteStream
    let origin: ConnectionPool.Origin
    /// Where `origin`'s entry lies in the pool (`HTTP2ClientPool.entryIndex(of:)`): a stream's end
    /// goes there without comparing origins.
    let poolEntry: Int
    /// Strong: the pool drops this connection when it closes (`retire`), and closes it when the client goes.
    private let pool: HTTP2ClientPool
    // The state below is the loop's alone, and no access to it overlaps another (each change is
    // done before this connection calls out): it skips run-time exclusivity checks, about 20
    // instructions an access and a dozen accesses an exchange (the figure: Benchmarks/README.md).
    // The exchange each stream carries is the stream's own (`HTTP2Stream.exchange`): no table by id.
    @exclusivity(unchecked) private var machine: HTTP2ConnectionStateMachine!
    /// Given to this connection while the peer's SETTINGS_MAX_CONCURRENT_STREAMS streams are open.
    @exclusivity(unchecked) private var queued: [HTTP2ClientExchange] = []
    @exclusivity(unchecked) private var outcomes: [Outcome] = []
    @exclusivity(unchecked) private var retries: [HTTP2ClientExchange] = []
    /// Codes of RST_STREAMs received, until their stream's end is handled.
    @exclusivity(unchecked) private var resetCodes: [UInt32: HTTP2ErrorCode] = [:]
    @exclusivity(unchecked) private var goAwayLastStreamID: UInt32?
    @exclusivity(unchecked) private var closeRequest: HTTP2ConnectionClose?
    @exclusivity(unchecked) private var reportedCapacity = 100
    @exclusivity(unchecked) private var retired = false
    private var timer: LoopTimer?
    @exclusivity(unchecked) private var lastRead: UInt64
    private var pingSentAt: UInt64?

    var loop: EventLoop { stream.loop }
    /// `loop` (which `stream` holds) for the two uses each exchange makes of it, `run`'s `inLoop`
    /// and `afterInputSoon`'s `whenBatchEnds`, without retaining it: a loop is weakly referenced,
    /// so it has a side table, and each retain and release of it took the runtime's slow path,
    /// about 170 instructions a use (the figure: Benchmarks/README.md).
    private let unretainedLoop: Unmanaged<EventLoop>

    init(stream: ByteStream, origin: ConnectionPool.Origin, poolEntry: Int, pool: HTTP2ClientPool) {
        self.stream = stream
        unretainedLoop = Unmanaged.passUnretained(stream.loop)
        self.origin = origin
        self.poolEntry = poolEntry
        self.pool = pool
        lastRead = DispatchTime.now().uptimeNanoseconds
        machine = HTTP2ConnectionStateMachine(
            owner: self, role: .client, limits: pool.settings.limits, maxBodyBytes: pool.settings.maxResponseBodyBytes)
    }

    /// The preface and SETTINGS, the handlers, the liveness timer.
    func start() {
        stream.onRead = { [self] bytes in received(bytes) }
        stream.onClose = { [self] _ in closed() }
        machine.start()
        flushOutput()
        let interval = pool.settings.pingInterval.nanoseconds
        let timer = loop.makeTimer()
        // Strong, as `onRead` above holds this connection until the stream closes, and `closed()`
        // cancels the timer and lets it go. A weak reference gave this object a side table, and
        // each retain and release of it then took the runtime's slow path, about 80 instructions
        // more each, a dozen an exchange (the figure: Benchmarks/README.md).
        timer.setEventHandler { [self] in checkLiveness(interval: interval) }
        timer.schedule(deadline: .now() + .nanoseconds(Int(interval / 2)), repeating: .nanoseconds(Int(interval / 2)))
        timer.resume()
        self.timer = timer
    }

    /// Starts `exchange` on a new stream (from any thread); queued here while the peer's limit is reached.
    func run(_ exchange: HTTP2ClientExchange) {
        guard unretainedLoop._withUnsafeGuaranteedRef({ $0.inLoop }) else { return loop.execute { self.run(exchange) } }
        // Granted while the machine is handling a read: opened once it is done.
        if handling { return queued.append(exchange) }
        open(exchange)
        afterInputSoon()
    }

    /// `afterInput` at the end of the loop's write batch when one runs, else now: the requests a
    /// loop turn sends (a fan-out's first 16) go out in one write, not one each (about 330
    /// instructions a write, some 19 of a `/users` request's 33 exchanges: Benchmarks/README.md).
    private func afterInputSoon() {
        guard !delivering, !afterInputAtBatchEnd else { return }
        let atBatchEnd = unretainedLoop._withUnsafeGuaranteedRef { loop in
            loop.whenBatchEnds({ [self] in
                afterInputAtBatchEnd = false
                afterInput()
            })
        }
        if atBatchEnd {
            afterInputAtBatchEnd = true
        } else {
            afterInput()
        }
    }

    @exclusivity(unchecked) private var afterInputAtBatchEnd = false

    /// An answer waiting for `afterInput`. A struct, not a tuple: the list's elements are destroyed
    /// by code made for them, where a tuple's went through the runtime's generic `tuple_destroy`
    /// (a few hundred instructions a `/users` request: Benchmarks/README.md).
    private struct Outcome {
        let exchange: HTTP2ClientExchange
        var result: Result<HTTPClientResponse, HTTPClientError>
    }

    /// The request fields' shared part of this connection's last request (`open`).
    @exclusivity(unchecked) private var sharedFields = HTTP2SharedFieldsMemo()

    /// The buffer the machine collects its next frames in (`flushOutput`).
    @exclusivity(unchecked) private var spareOutput: [UInt8] = []
    /// The most room a written buffer keeps for the next frames: more is given back.
    private static let keptOutputCapacity = 16 * 1024

    /// The machine is handling input; what it triggers waits for `afterInput`.
    @exclusivity(unchecked) private var handling = false

    private func open(_ exchange: HTTP2ClientExchange) {
        if let limit = machine.peer.maxConcurrentStreams, machine.streams.count >= limit {
            queued.append(exchange)
            return
        }
        guard machine.canOpenStream, !stream.isClosed else {
            // Taken out of the pool's choice first, so that the retry goes to another connection.
            retire()
            retries.append(exchange)
            pool.streamEnded(on: self)
            return
        }
        guard exchange.attach(to: self) else {
            pool.streamEnded(on: self)
            return
        }
        let shared = sharedFields.shared(for: exchange.request, origin: origin, from: exchange.client.http2RequestFields)
        let fields = HTTP2RequestFields.list(of: exchange.request, shared: shared.fields)
        let template = HTTP2RequestFields.template(of: fields, shared: shared, exchange: exchange)
        // `shared` kept while the template (which does not hold it) is read.
        let opened = withExtendedLifetime(shared) { machine.openStream(fields: fields, endStream: true, template: template) }
        guard let opened else {
            retire()
            retries.append(exchange)
            pool.streamEnded(on: self)
            return
        }
        opened.exchange = exchange
    }

    /// The caller disposed: RST_STREAM CANCEL goes out, so the upstream stops sending.
    func cancel(_ exchange: HTTP2ClientExchange) {
        if handling { return loop.execute { self.cancel(exchange) } }
        if let index = queued.firstIndex(where: { $0 === exchange }) {
            queued.remove(at: index)
            pool.streamEnded(on: self)
            return
        }
        // Rare (a caller that disposes): a scan of the open streams, not a table kept for it.
        guard let target = machine.streams.open.values.first(where: { $0.exchange === exchange }) else { return }
        machine.cancel(target)
        afterInput()
    }

    /// A PING when the peer has been quiet for an interval; the close when it stays quiet for
    /// another one after it (a dead peer, or a path that dropped the connection).
    private func checkLiveness(interval: UInt64) {
        let now = DispatchTime.now().uptimeNanoseconds
        if let sentAt = pingSentAt, lastRead < sentAt, now &- sentAt >= interval {
            stream.close(.failed("no answer to PING within \(pool.settings.pingInterval.text)"))
            return
        }
        guard now &- lastRead >= interval, pingSentAt.map({ lastRead >= $0 }) ?? true else { return }
        pingSentAt = now
        machine.ping(now)
        flushOutput()
    }

    /// The client is going: GOAWAY, then the close.
    func shutdown() {
        guard loop.inLoop else { return loop.execute { self.shutdown() } }
        guard !stream.isClosed else { return }
        machine.closeWhenFlushed()
        afterInput()
    }

    // MARK: - Input

    private func received(_ bytes: UnsafeRawBufferPointer) {
        lastRead = DispatchTime.now().uptimeNanoseconds
        handling = true
        machine.receive(bytes)
        handling = false
        let capacity = machine.peer.maxConcurrentStreams ?? 100
        if capacity != reportedCapacity {
            reportedCapacity = capacity
            pool.capacityChanged(of: self, to: capacity)
        }
        afterInput()
    }

    /// Answers are being handed out (`afterInput`): what their callers trigger (a next request's
    /// `run`, a `cancel`) changes the machine at once, and the delivering `afterInput` goes round
    /// again for its frames and answers. Each such request's head was written by an `afterInput`
    /// of its own, a write per exchange (about 360 instructions each, 13 of a `/users` request's
    /// 33 exchanges: Benchmarks/README.md); now the heads opened in one delivery go out in one write.
    @exclusivity(unchecked) private var delivering = false

    /// Frames out, then the queued streams, retries and answers, then the close the machine asked
    /// for; again while handing out answers queued more.
    private func afterInput() {
        guard !delivering else { return }
        while openQueuedAndFlush() {
            delivering = true
            deliver()
            delivering = false
        }
    }

    /// Opens queued streams and writes the frames; whether answers or retries wait.
    private func openQueuedAndFlush() -> Bool {
        let limit = machine.peer.maxConcurrentStreams ?? Int.max
        while !queued.isEmpty && machine.streams.count < limit && !stream.isClosed {
            open(queued.removeFirst())
        }
        flushOutput()
        return !outcomes.isEmpty || !retries.isEmpty
    }

    /// Hands out the retries and answers waiting (with `delivering` set).
    private func deliver() {
        // Taken out (a caller may send again meanwhile), then given back emptied with their room:
        // made anew, each answer's list was allocated and grown again (about 300 instructions an answer).
        var outcomes: [Outcome] = []
        swap(&outcomes, &self.outcomes)
        var retries: [HTTP2ClientExchange] = []
        swap(&retries, &self.retries)
        for exchange in retries {
            if exchange.detachForRetry() {
                pool.send(exchange)
            } else {
                exchange.finish(.failure(.connection("the upstream refused the request on HTTP/2 \(HTTP2ClientExchange.maxAttempts) times")))
            }
        }
        // Each answer moved out of the list (swapped with an empty failure), oldest first: iterated,
        // each was copied (its references retained) and then destroyed with the list, about 290
        // instructions an answer; popped after a `reverse()`, it was swapped through value
        // witnesses, about 385 (Benchmarks/README.md).
        outcomes.withUnsafeMutableBufferPointer { outcomes in
            for index in outcomes.indices {
                var result: Result<HTTPClientResponse, HTTPClientError> = .failure(.connection(""))
                swap(&result, &outcomes[index].result)
                outcomes[index].exchange.finish(result)
            }
        }
        outcomes.removeAll(keepingCapacity: true)
        retries.removeAll(keepingCapacity: true)
        if self.outcomes.isEmpty { self.outcomes = outcomes }
        if self.retries.isEmpty { self.retries = retries }
    }

    private func flushOutput() {
        if machine.outputCount > 0 {
            // The machine's frames swapped for the emptied buffer of the last write, whose room it
            // fills next: `ByteStream.write` copies what it keeps, and a new buffer per write was an
            // allocation per request head (about 170 instructions an exchange: Benchmarks/README.md).
            var output: [UInt8] = []
            swap(&output, &spareOutput)
            machine.swapOutput(&output)
            stream.write(output)
            output.removeAll(keepingCapacity: output.capacity <= Self.keptOutputCapacity)
            if spareOutput.capacity == 0 { spareOutput = output }
        }
        guard let how = closeRequest else { return }
        closeRequest = nil
        retire()
        switch how {
        case .afterFlush, .lingerAfterFlush: stream.closeAfterFlush()
        case .now(let failure): stream.close(.failed(failure))
        }
    }

    private func closed() {
        timer?.cancel()
        timer = nil
        handling = true
        machine.closed()
        handling = false
        for exchange in queued { retries.append(exchange) }
        queued = []
        retire(closed: true)
        afterInput()
    }

    private func retire(closed: Bool = false) {
        guard !retired || closed else { return }
        retired = true
        pool.retire(self, closed: closed)
    }

    // MARK: - HTTP2ConnectionOwner

    var socketBacklog: Int { stream.bufferedByteCount }

    func receivedResponseHead(_ target: HTTP2Stream, _ head: consuming HTTP2ResponseHead) {
        guard let exchange = target.exchange else { return }
        exchange.head = consume head
        // A HEAD's content-length describes the body a GET would get.
        if exchange.request.method.rawValue == "HEAD" { target.declaredContentLength = nil }
    }

    func answerEnded(_ target: HTTP2Stream, completed: Bool) {
        guard let exchange = target.exchange else { return }
        target.exchange = nil
        // Empty but after a reset: a lookup in an empty dictionary still hashes its key.
        let resetCode = resetCodes.isEmpty ? nil : resetCodes.removeValue(forKey: target.id)
        pool.streamEnded(on: self)
        // The head taken out of the exchange, so that its fields are the answer's alone (changed in place for a gzip body).
        if completed, let head = exchange.head.take() {
            outcomes.append(Outcome(exchange: exchange, result: HTTP2ResponseBody.response(head: consume head, body: target.body)))
            return
        }
        // Not processed by the server, so safe to send again: above its GOAWAY's last stream (for
        // an idempotent request, RFC 9113 §6.8), or refused (any request, §8.7).
        if let last = goAwayLastStreamID, target.id > last, exchange.isIdempotent {
            retries.append(exchange)
        } else if resetCode == .refusedStream {
            retries.append(exchange)
        } else if let resetCode {
            outcomes.append(Outcome(exchange: exchange, result: .failure(.connection("the upstream reset the stream (\(resetCode))"))))
        } else if let failure = localFailure.removeValue(forKey: target.id) {
            outcomes.append(Outcome(exchange: exchange, result: .failure(.malformed(failure))))
        } else {
            outcomes.append(Outcome(exchange: exchange, result: .failure(.connection("the HTTP/2 connection closed before the response was complete"))))
        }
    }

    /// Why this side reset a stream or failed the connection (the peer broke the protocol).
    private var localFailure: [UInt32: String] = [:]
    private var connectionFailure: String?

    func report(_ kind: HTTP2Event.Kind, streamID: UInt32, code: HTTP2ErrorCode?, reason: String?) {
        switch kind {
        case .resetReceived:
            if let code { resetCodes[streamID] = code }
        case .goAwayReceived:
            goAwayLastStreamID = streamID
            retire()
        case .resetSent where code != .cancel:
            localFailure[streamID] = reason ?? "stream error \(code.map { "\($0)" } ?? "")"
        case .goAwaySent where code != .noError:
            connectionFailure = reason
            for target in machine.streams.open.values where target.exchange != nil { localFailure[target.id] = reason ?? "connection error" }
        default:
            break
        }
    }

    func close(_ how: HTTP2ConnectionClose) {
        closeRequest = how
    }

    func startRequest(_ stream: HTTP2Stream) {}
    func answerWithoutHandler(_ stream: HTTP2Stream, status: HTTPStatus, detail: String) {}
    func endForShutdown(_ stream: HTTP2Stream) {}
    func bodyTimedOut(_ stream: HTTP2Stream, detail: String) {}
}
