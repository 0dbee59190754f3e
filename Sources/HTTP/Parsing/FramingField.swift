/// The header fields a request parser must see to decide the framing (and `X-Request-ID`,
/// `Connection` and `User-Agent`, which the server asks of every request), recognised from
/// the raw name (ASCII case-insensitive) before any string is made of it.
enum FramingField {
    case host, contentLength, transferEncoding, expect, requestID, connection, userAgent

    init?(_ name: UnsafeRawBufferPointer) {
        switch name.count {
        case 4: if HTTPSyntax.sameToken(name, "host") { self = .host; return }
        case 6: if HTTPSyntax.sameToken(name, "expect") { self = .expect; return }
        case 10:
            if HTTPSyntax.sameToken(name, "connection") { self = .connection; return }
            if HTTPSyntax.sameToken(name, "user-agent") { self = .userAgent; return }
        case 12: if HTTPSyntax.sameToken(name, "x-request-id") { self = .requestID; return }
        case 14: if HTTPSyntax.sameToken(name, "content-length") { self = .contentLength; return }
        case 17: if HTTPSyntax.sameToken(name, "transfer-encoding") { self = .transferEncoding; return }
        default: break
        }
        return nil
    }
}
