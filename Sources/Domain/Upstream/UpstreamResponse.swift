import HTTP

/// A complete upstream answer: status, headers (names lower-cased) and the decoded body.
public struct UpstreamResponse: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]
    private var fields: Fields

    /// The header fields as the HTTP transport received them, or as a dictionary given by
    /// the caller. A received answer's dictionary is built only when `headers` is asked for:
    /// the pipelines ask `header(_:)` for one or two fields, and building the dictionary of
    /// every field (lower-casing each name) cost about 15,000 instructions per avatar (callgrind).
    private enum Fields: Sendable {
        case lowercased([String: String])
        case received(HTTPHeaders)
    }

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        fields = .lowercased(Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first }))
        self.body = body
    }

    /// An answer with its fields as received (the HTTP transport's answers).
    init(status: Int, received headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        fields = .received(headers)
        self.body = body
    }

    /// Header names lower-cased; repeated fields joined with `, ` (RFC 9110 §5.3).
    public var headers: [String: String] {
        get {
            switch fields {
            case .lowercased(let headers): return headers
            case .received(let received):
                var headers: [String: String] = [:]
                for (name, value) in received {
                    let key = name.lowercased()
                    headers[key] = headers[key].map { "\($0), \(value)" } ?? value
                }
                return headers
            }
        }
        set { fields = .lowercased(newValue) }
    }

    /// A header's value, whatever the case of its name; repeated fields joined with `, `.
    public func header(_ name: String) -> String? {
        switch fields {
        case .lowercased(let headers): return headers[name.lowercased()]
        case .received(let received):
            var joined: String?
            for (field, value) in received where HTTPHeaders.sameName(field, name) {
                joined = joined.map { "\($0), \(value)" } ?? value
            }
            return joined
        }
    }

    public static func == (lhs: UpstreamResponse, rhs: UpstreamResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.headers == rhs.headers
    }
}
