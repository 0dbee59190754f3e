// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A request's header list for HTTP/2 (RFC 9113 §8.3.1): the pseudo-headers from its URL, then its
/// fields with lowercase names, without `Host` (`:authority` says it) and the fields that mean
/// something to one HTTP/1.1 connection only (§8.2.2).
enum HTTP2RequestFields {
    typealias Field = (name: String, value: String)

    /// The list for `request`, `shared` being `shared(of: request)` (or one kept from an earlier
    /// request with the same origin and fields: `HTTPClient.http2RequestFields`).
    static func fields(of request: HTTPClientRequest, shared: [Field]) -> [Field] {
        var fields: [Field] = [(":method", request.method.rawValue), (":scheme", request.isSecure ? "https" : "http")]
        let extra = request.sentExtraHeaders
        fields.reserveCapacity(3 + shared.count + extra.count)
        fields.append(shared[0])
        fields.append((":path", request.target))
        fields.append(contentsOf: shared[1...])
        append(extra, to: &fields)
        return fields
    }

    /// What `fields(of:shared:)` lists, in its order, without an array made for it: the encoder
    /// reads the fields one by one, and an array of them per request cost an allocation, its
    /// growth and a generic destroy of each field (about 1,300 instructions an exchange, the
    /// figure: Benchmarks/README.md). `fields(of:shared:)` is its slow twin (HTTP2RequestFieldsTests).
    static func list(of request: HTTPClientRequest, shared: [Field]) -> List {
        List(request: request, shared: shared)
    }

    /// `:method`, `:scheme`, `:authority` (the kept part's first), `:path`, the rest of the kept
    /// part, then the request's own fields. It holds the request and the kept part alone, what
    /// else it lists read from the request as it is read: a list of five references (the method's
    /// and scheme's `String`s and the request's own fields made up front) cost their retains and
    /// releases, and its destroy through value witnesses, about 140 instructions an upstream
    /// exchange (Benchmarks/README.md).
    struct List: Sequence {
        /// Whose `target` is `:path`, made when the list is read: a block from the encoder's
        /// template reads the target's bytes alone (`template(of:shared:exchange:)`).
        let request: HTTPClientRequest
        let shared: [Field]

        var method: String { request.method.rawValue }
        var scheme: String { request.isSecure ? "https" : "http" }
        /// The request's own fields (`extraHeaders`, and `traceParent`'s) as they are sent.
        var extra: [Field] {
            var extra: [Field] = []
            if !request.extraHeaders.isEmpty || request.traceParent != nil { HTTP2RequestFields.append(request.sentExtraHeaders, to: &extra) }
            return extra
        }

        func makeIterator() -> Iterator { Iterator(list: self) }

        struct Iterator: IteratorProtocol {
            let list: List
            var position = 0
            /// `list.extra`, made when the list reaches it.
            var extra: [Field]?

            mutating func next() -> Field? {
                defer { position += 1 }
                switch position {
                case 0: return (":method", list.method)
                case 1: return (":scheme", list.scheme)
                case 2: return list.shared[0]
                case 3: return (":path", list.request.target)
                case let at where at < list.shared.count + 3: return list.shared[at - 3]
                default:
                    if extra == nil { extra = list.extra }
                    let at = position - 3 - list.shared.count
                    return at < extra!.count ? extra![at] : nil
                }
            }
        }
    }

    /// A kept shared part (`HTTPClient.http2RequestFields`) as an object, whose identity tells the
    /// encoder that a request is one of a series (`template(of:shared:)`).
    final class Shared: Sendable {
        let fields: [Field]

        init(_ fields: [Field]) {
            self.fields = fields
        }
    }

    /// For `HPACKEncoder.encode(_:template:varyingAt:name:value:valueString:into:)`: a GET without
    /// fields of its own is, under its kept part (one origin, so one scheme, and one field list),
    /// the same block every time but for `:path` (position 3 of `list(of:shared:)`), whose value
    /// the request writes (`HTTPClientRequest.withTargetBytes`). Nil for any other request.
    /// `list` is `list(of: exchange.request, shared: shared.fields)`; the template holds neither
    /// `shared` nor `exchange` (see `HTTP2RequestTemplate`), so the caller keeps both while it is used.
    static func template(of list: List, shared: Shared, exchange: HTTP2ClientExchange) -> HTTP2RequestTemplate? {
        guard list.request.method.rawValue == "GET", (list.request.extraHeaders.isEmpty && list.request.traceParent == nil) || list.extra.isEmpty else { return nil }
        return HTTP2RequestTemplate(key: shared, exchange: exchange)
    }

    /// The list for `request`, made whole: what `fields(of:shared:)` gives with a kept part.
    static func fields(of request: HTTPClientRequest) -> [Field] {
        fields(of: request, shared: shared(of: request))
    }

    /// What stays the same request after request to one origin with one field list: `:authority`,
    /// then `headers` with lowered names (lowering and the interpolated `Host` value cost the
    /// HTTP/2 client more than the rest of a request's list, the figure: Benchmarks/README.md).
    static func shared(of request: HTTPClientRequest) -> [Field] {
        var fields: [Field] = [(":authority", request.hostHeader)]
        fields.reserveCapacity(1 + request.headers.count)
        append(request.headers, to: &fields)
        return fields
    }

    private static func append(_ headers: HTTPHeaders, to fields: inout [Field]) {
        for (name, value) in headers {
            let lowercased = HTTP2RequestHead.lowercasedName(name)
            if lowercased == "host" || HTTP2RequestHead.isConnectionSpecific(lowercased) { continue }
            if lowercased == "te" && value != "trailers" { continue }
            fields.append((lowercased, value))
        }
    }
}

/// A connection's last kept shared part (`HTTPClient.http2RequestFields`) and the request fields
/// it was kept for: a connection's requests have one origin, and an upstream client's series one
/// field list, so the next request nearly always takes the same part. Found here with one
/// comparison of the fields (the same list shared: one comparison of their storage), where the
/// client's cache, its slow twin, takes a lock and compares origins too, about 250 instructions an
/// exchange (Benchmarks/README.md). The part is the cache's own object, made from the origin and
/// the fields alone, so the one kept here is the one the cache gives (HTTP2RequestFieldsTests).
struct HTTP2SharedFieldsMemo {
    private var headers = HTTPHeaders()
    private var shared: HTTP2RequestFields.Shared?

    /// The shared part for `request`, whose origin is `origin` (the connection's).
    mutating func shared(
        for request: HTTPClientRequest, origin: ConnectionPool.Origin, from cache: RequestFieldsCache<HTTP2RequestFields.Shared>
    ) -> HTTP2RequestFields.Shared {
        if let shared, request.headers == headers { return shared }
        let found = cache.fields(for: request, origin: origin)
        headers = request.headers
        shared = found
        return found
    }
}

/// A request head that is its series' template but for one field (`HTTP2RequestFields.template(of:shared:exchange:)`):
/// the template's key and the exchange whose request's target is the varying field's value.
struct HTTP2RequestTemplate {
    // Unowned, and the field's name a constant: a template lives only while
    // `HTTP2ClientConnection.open` opens its exchange's stream, which holds the key and the
    // exchange, and holding nothing it is copied and destroyed for free. Holding them (with the
    // request instead of its exchange, and the name), its copies on the way to the encoder retained
    // and released them, and its destroys went through value witnesses, about 450 instructions an
    // upstream exchange (Benchmarks/README.md).
    unowned(unsafe) let key: any AnyObject & Sendable
    unowned(unsafe) let exchange: HTTP2ClientExchange

    /// The varying field: `:path`, at its place in `HTTP2RequestFields.list(of:shared:)`.
    static let position = 3
    static let name = ":path"
}
