/// The `close` and `keep-alive` options of a request's `Connection` fields (RFC 9110 §7.6.1),
/// read from the field values' bytes as the parser meets them: a comma-separated list,
/// blanks around each element, names compared ASCII case-insensitively, as
/// `HTTPHeaders.containsToken` reads them.
struct ConnectionOptions: Sendable, Equatable {
    var close = false
    var keepAlive = false

    /// Notes the options listed in one `Connection` field value.
    mutating func add(_ value: UnsafeRawBufferPointer) {
        var start = 0
        while start <= value.count {
            var end = start
            while end < value.count && value[end] != UInt8(ascii: ",") { end += 1 }
            var first = start, last = end
            while first < last && (value[first] == 32 || value[first] == 9) { first += 1 }
            while last > first && (value[last - 1] == 32 || value[last - 1] == 9) { last -= 1 }
            let element = UnsafeRawBufferPointer(rebasing: value[first..<last])
            if HTTPSyntax.sameToken(element, "close") { close = true }
            if HTTPSyntax.sameToken(element, "keep-alive") { keepAlive = true }
            start = end + 1
        }
    }
}
