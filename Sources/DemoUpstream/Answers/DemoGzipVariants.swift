// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP

/// The gzip encodings of the demo upstream's stored answers, made once per answer and
/// `Accept-Encoding` value instead of once per request: a 30-user page cost 1.0 ms of CPU
/// with gzip against 0.76 ms without, the difference being zlib.
///
/// Each is made by the server's own `ResponseCompressor`, so the writer's rules decide
/// (whether the client accepts gzip, what is worth compressing) and the bytes are the ones
/// the writer would send. An answer it encodes leaves with `Content-Encoding` set, which the
/// writer then leaves alone; one it would not encode is left to the writer as it is.
///
/// In Domain beside the answers, not in Server beside the sockets: `BoundedMemo` is generic,
/// and the module that names its types is where it is specialised; called from Server, the
/// lookup was left unspecialised (the figure: Benchmarks/README.md).
package final class DemoGzipVariants: Sendable {
    struct Key: Hashable, Sendable {
        /// A stored answer's ETag names its bytes (a hash of the body).
        let etag: String
        let acceptEncoding: String
    }

    /// Where a field of an encoded answer comes from: the answer's own field at that index,
    /// named so (with this request's value: the rate limit's fields change with every answer),
    /// or the compressor (`Vary`, `Content-Encoding`).
    enum Field: Sendable {
        case answer(Int, name: String)
        case added(name: String, value: String)
    }

    enum Variant: Sendable {
        /// Not encoded: the writer's own rules apply to the answer as it is.
        case identity
        /// `fieldCount` is the number of fields of the answer the layout was made from.
        case gzip(body: [UInt8], layout: [Field], fieldCount: Int)

        var bytes: Int {
            guard case .gzip(let body, let layout, _) = self else { return 0 }
            return body.count + 16 * layout.count
        }
    }

    private let compressor: ResponseCompressor
    /// 16 MiB: gzip makes the demo's JSON about 13 times smaller, so this holds the encodings
    /// of all the answers `DemoUpstream` keeps (64 MiB) for a few `Accept-Encoding` values.
    private let variants = BoundedMemo<Key, Variant>(capacityBytes: 16 << 20) { key, variant in
        64 + key.etag.utf8.count + key.acceptEncoding.utf8.count + variant.bytes
    }

    package init(compressionMinimumBytes: Int) {
        compressor = ResponseCompressor(minimumBytes: compressionMinimumBytes)
    }

    /// Encodings kept now.
    var count: Int { variants.count }

    package func response(for answer: DemoResponse, acceptEncoding: String?) -> Response {
        // The compressor leaves a body under its threshold alone, Vary and all: an identicon
        // (165 bytes) goes as it is without a lookup (the figure: Benchmarks/README.md).
        guard answer.isStored, answer.truncatedAfter == nil, answer.body.count >= compressor.minimumBytes, let acceptEncoding,
              let etag = answer.fields["ETag"]
        else {
            return answer.httpResponse
        }
        let variant = variants.value(for: Key(etag: etag, acceptEncoding: acceptEncoding)) { encode(answer, acceptEncoding: acceptEncoding) }
        guard case .gzip(let body, let layout, let fieldCount) = variant, fieldCount == answer.fields.count else {
            return answer.httpResponse
        }
        let fields = Array(answer.fields)
        var headers: [(String, String)] = []
        headers.reserveCapacity(layout.count)
        for field in layout {
            switch field {
            case .answer(let index, let name):
                // Another answer under the same tag, laid out otherwise: the writer compresses it.
                guard fields[index].name == name else { return answer.httpResponse }
                headers.append((name, fields[index].value))
            case .added(let name, let value):
                headers.append((name, value))
            }
        }
        return Response(status: HTTPStatus(code: answer.status), headers: HTTPHeaders(headers), body: .bytes(body))
    }

    /// What the compressor makes of `answer`, with each of its fields traced back to the answer.
    private func encode(_ answer: DemoResponse, acceptEncoding: String) -> Variant {
        var body = answer.body
        var headers = answer.fields
        compressor.compress(&body, headers: &headers, status: HTTPStatus(code: answer.status), acceptEncoding: acceptEncoding)
        guard headers.contains("Content-Encoding") else { return .identity }
        var unused = Array(answer.fields.enumerated())
        let layout = headers.map { field -> Field in
            guard let match = unused.firstIndex(where: { $0.element.name == field.name && $0.element.value == field.value }) else {
                return .added(name: field.name, value: field.value)
            }
            let (index, field) = unused.remove(at: match)
            return .answer(index, name: field.name)
        }
        return .gzip(body: body, layout: layout, fieldCount: answer.fields.count)
    }
}
