import NetCore

/// Percent-decoded `name=value` pairs of a request target's query, in order.
public struct QueryItems: Sendable, Equatable, Sequence {
    public typealias Item = (name: String, value: String)

    private var items: [Item]

    public init(_ items: [(String, String)] = []) {
        self.items = items.map { (name: $0.0, value: $0.1) }
    }

    /// Parses `a=1&b=x%20y&flag` (`+` decodes to a space, as in HTML forms).
    public init(parsing query: Substring) {
        var parsed: [Item] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            if let eq = pair.firstIndex(of: "=") {
                parsed.append((PercentEncoding.decode(pair[..<eq]), PercentEncoding.decode(pair[pair.index(after: eq)...])))
            } else {
                parsed.append((PercentEncoding.decode(pair), ""))
            }
        }
        items = parsed
    }

    /// The first value for `name`, or nil.
    public subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    public func values(for name: String) -> [String] {
        items.compactMap { $0.name == name ? $0.value : nil }
    }

    public var count: Int { items.count }
    public var isEmpty: Bool { items.isEmpty }

    public func makeIterator() -> IndexingIterator<[Item]> { items.makeIterator() }

    public static func == (lhs: QueryItems, rhs: QueryItems) -> Bool {
        lhs.items.count == rhs.items.count && zip(lhs.items, rhs.items).allSatisfy { $0 == $1 }
    }
}
