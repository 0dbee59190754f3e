// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// One message of a `text/event-stream` (WHATWG HTML, "Server-sent events").
///
/// Any field may be absent. A message with only a `comment` is what keeps an
/// idle stream alive (a heartbeat); browsers ignore it.
public struct ServerSentEvent: Sendable, Equatable {
    /// Becomes the client's `lastEventId`, sent back as `Last-Event-ID` on reconnect.
    public var id: String?
    /// The event type; clients listen with `addEventListener(event, …)`. nil means `message`.
    public var event: String?
    /// The payload; may contain line breaks (sent as several `data:` lines).
    public var data: String?
    /// Reconnection delay the client should use, in milliseconds.
    public var retry: Int?
    /// A comment line (`: text`), ignored by clients.
    public var comment: String?

    /// A message with these fields; leave out the ones it does not carry.
    public init(id: String? = nil, event: String? = nil, data: String? = nil, retry: Int? = nil, comment: String? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
        self.comment = comment
    }

    /// A comment-only message, e.g. a heartbeat.
    public static func comment(_ text: String) -> ServerSentEvent {
        ServerSentEvent(comment: text)
    }

    /// The message in wire format.
    public var encoded: [UInt8] { SSEEncoder.encode(self) }
}
