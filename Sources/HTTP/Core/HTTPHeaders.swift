/// An ordered list of header fields with case-insensitive name lookup.
///
/// Order and duplicates are preserved because both matter on the wire
/// (e.g. several `Set-Cookie` fields); lookups compare names ASCII
/// case-insensitively without allocating.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Field = (name: String, value: String)

    private var storage: [Field] = []

    public init() {}

    public init(_ fields: [(String, String)]) {
        storage = fields.map { (name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }

    /// The first value for `name`, or nil.
    public subscript(name: String) -> String? {
        get { storage.first { Self.sameName($0.name, name) }?.value }
        set {
            if let newValue { replaceOrAdd(name: name, value: newValue) } else { remove(name: name) }
        }
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        storage.compactMap { Self.sameName($0.name, name) ? $0.value : nil }
    }

    public func contains(_ name: String) -> Bool {
        storage.contains { Self.sameName($0.name, name) }
    }

    public mutating func add(name: String, value: String) {
        storage.append((name: name, value: value))
    }

    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        storage.append((name: name, value: value))
    }

    public mutating func remove(name: String) {
        storage.removeAll { Self.sameName($0.name, name) }
    }

    /// True when any comma-separated element of any `name` field equals `token`
    /// (case-insensitive), e.g. `Connection: keep-alive, Upgrade`.
    public func containsToken(_ token: String, in name: String) -> Bool {
        for value in values(for: name) {
            for element in value.split(separator: ",") {
                if Self.sameName(element.trimmingSpaces, token) { return true }
            }
        }
        return false
    }

    public func makeIterator() -> IndexingIterator<[Field]> {
        storage.makeIterator()
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.storage.count == rhs.storage.count
            && zip(lhs.storage, rhs.storage).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    package static func sameName<A: StringProtocol, B: StringProtocol>(_ a: A, _ b: B) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        for (p, q) in zip(x, y) where p != q {
            // ASCII letters differ only in bit 0x20; everything else must match exactly.
            guard p | 0x20 == q | 0x20, (p | 0x20) >= 0x61, (p | 0x20) <= 0x7A else { return false }
        }
        return true
    }
}
