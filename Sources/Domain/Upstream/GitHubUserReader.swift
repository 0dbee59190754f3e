import HTTP
import NetCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads GitHub user objects (`simple-user` list items, `public-user`) straight from a
/// body's bytes: the fields `GitHubUser` keeps are picked out and every other value is
/// skipped without being built.
///
/// Why: `JSONDecoder` first builds a map of the whole document, then decodes through the
/// `Decodable` containers; for a `/users?per_page=30` page (about 20 fields a user) that was
/// about 2.3 million instructions, 14 % of a whole `/users` request, against about 0.2 million here.
///
/// Only the plain shapes are read: a value it does not expect (a number with a fraction or
/// exponent for `id`, a wrong type, a repeated field, a malformed escape, anything after the
/// document) makes it return nil, and the caller then decodes with `JSONDecoder`, whose
/// answer or error stands. So this reader can be faster, never different.
enum GitHubUserReader {
    static func list(_ body: [UInt8]) -> [GitHubUser]? {
        body.withUnsafeBufferPointer { bytes in
            var reader = Reader(bytes: bytes)
            guard let users = reader.userList(), reader.atEnd() else { return nil }
            return users
        }
    }

    static func user(_ body: [UInt8]) -> GitHubUser? {
        body.withUnsafeBufferPointer { bytes in
            var reader = Reader(bytes: bytes)
            guard let user = reader.user(), reader.atEnd() else { return nil }
            return user
        }
    }

    /// The fields `GitHubUser` keeps, by their JSON names.
    private enum Field {
        case login, id, avatarUrl, type, name, company, blog, location, bio, publicRepos, followers, following, createdAt, other

        /// The field a key's bytes name: the length picks the one to three names to compare. A page
        /// item has about 19 keys, 16 of them kept by no field; comparing each key with all 13 names
        /// from a table cost about 250 instructions a key (148,000 per 30-user page, callgrind).
        init(_ key: UnsafeBufferPointer<UInt8>) {
            func named(_ name: StaticString) -> Bool { memcmp(name.utf8Start, key.baseAddress!, key.count) == 0 }
            switch key.count {
            case 2: self = named("id") ? .id : .other
            case 3: self = named("bio") ? .bio : .other
            case 4: self = named("type") ? .type : named("name") ? .name : named("blog") ? .blog : .other
            case 5: self = named("login") ? .login : .other
            case 7: self = named("company") ? .company : .other
            case 8: self = named("location") ? .location : .other
            case 9: self = named("followers") ? .followers : named("following") ? .following : .other
            case 10: self = named("avatar_url") ? .avatarUrl : named("created_at") ? .createdAt : .other
            case 12: self = named("public_repos") ? .publicRepos : .other
            default: self = .other
            }
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        /// Skips whitespace; true (and consumed) when the next byte is `byte`.
        mutating func take(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func atEnd() -> Bool {
            skipWhitespace()
            return index == bytes.count
        }

        mutating func userList() -> [GitHubUser]? {
            guard take(UInt8(ascii: "[")) else { return nil }
            var users: [GitHubUser] = []
            if take(UInt8(ascii: "]")) { return users }
            repeat {
                guard let user = user() else { return nil }
                users.append(user)
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]")) ? users : nil
        }

        mutating func user() -> GitHubUser? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var login: String?, id: Int?, avatarUrl: String?
            var type: String??, name: String??, company: String??, blog: String??, location: String??, bio: String??
            var publicRepos: Int??, followers: Int??, following: Int??, createdAt: String??
            if !take(UInt8(ascii: "}")) {
                repeat {
                    guard let key = keyField(), take(UInt8(ascii: ":")) else { return nil }
                    switch key {
                    case .login: guard login == nil, let value = string() else { return nil }; login = value
                    case .id: guard id == nil, let value = integer() else { return nil }; id = value
                    case .avatarUrl: guard avatarUrl == nil, let value = string() else { return nil }; avatarUrl = value
                    case .type: guard type == nil, let value = optional({ $0.string() }) else { return nil }; type = value
                    case .name: guard name == nil, let value = optional({ $0.string() }) else { return nil }; name = value
                    case .company: guard company == nil, let value = optional({ $0.string() }) else { return nil }; company = value
                    case .blog: guard blog == nil, let value = optional({ $0.string() }) else { return nil }; blog = value
                    case .location: guard location == nil, let value = optional({ $0.string() }) else { return nil }; location = value
                    case .bio: guard bio == nil, let value = optional({ $0.string() }) else { return nil }; bio = value
                    case .publicRepos: guard publicRepos == nil, let value = optional({ $0.integer() }) else { return nil }; publicRepos = value
                    case .followers: guard followers == nil, let value = optional({ $0.integer() }) else { return nil }; followers = value
                    case .following: guard following == nil, let value = optional({ $0.integer() }) else { return nil }; following = value
                    case .createdAt: guard createdAt == nil, let value = optional({ $0.string() }) else { return nil }; createdAt = value
                    case .other: guard skipValue(depth: 0) else { return nil }
                    }
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "}")) else { return nil }
            }
            guard let login, let id, let avatarUrl else { return nil }
            return GitHubUser(
                login: login, id: id, avatarUrl: avatarUrl, type: type ?? nil, name: name ?? nil, company: company ?? nil,
                blog: blog ?? nil, location: location ?? nil, bio: bio ?? nil, publicRepos: publicRepos ?? nil,
                followers: followers ?? nil, following: following ?? nil, createdAt: createdAt ?? nil)
        }

        /// `null` → `.some(nil)`, a value → `.some(value)`, anything else → nil.
        mutating func optional<Value>(_ read: (inout Reader) -> Value?) -> Value?? {
            if literal("null") { return .some(nil) }
            guard let value = read(&self) else { return nil }
            return .some(value)
        }

        mutating func literal(_ word: StaticString) -> Bool {
            skipWhitespace()
            return literalBytes(word)
        }

        /// A plain integer (`-?[0-9]+`) that fits an `Int`.
        mutating func integer() -> Int? {
            skipWhitespace()
            let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let start = index
            var value = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int(bytes[index] - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { return nil }
                value = sum
                index += 1
            }
            guard index > start, index - start == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
            // A fraction or exponent: not a plain integer, let JSONDecoder judge it.
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
            return negative ? -value : value
        }

        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            var ascii = true
            while index < bytes.count {
                index = plainRun(from: index)
                guard index < bytes.count else { break }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    // ASCII needs no validation: the common case costs one copy.
                    return ascii ? String(decoding: raw, as: UTF8.self) : String(validating: raw, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") { return escapedString(from: start) }
                guard byte >= 0x20 else { return nil }
                if byte >= 0x80 { ascii = false }
                index += 1
            }
            return nil
        }

        /// The first index at or after `start` of a byte a string's reader must look at (`"`, `\`,
        /// a control character, non-ASCII), or the end; eight bytes tested at a time. A list
        /// page is mostly URL strings, and a byte at a time cost about 10 instructions a byte.
        func plainRun(from start: Int) -> Int {
            JSONScan.stringStop(in: UnsafeRawBufferPointer(bytes), from: start)
        }

        /// A string skipped without being built; false when it is not a well-formed one.
        mutating func skipString() -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
            let start = index
            index += 1
            while index < bytes.count {
                index = plainRun(from: index)
                guard index < bytes.count else { break }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return true
                }
                if byte == UInt8(ascii: "\\") || byte >= 0x80 {
                    // Escapes and non-ASCII text are checked as `string()` checks them.
                    index = start
                    return string() != nil
                }
                guard byte >= 0x20 else { return false }
                index += 1
            }
            return false
        }

        /// The field a key names, matched on its bytes (a key with escapes is left to JSONDecoder).
        mutating func keyField() -> Field? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while true {
                index = plainRun(from: index)
                guard index < bytes.count, bytes[index] >= 0x80 else { break }
                index += 1  // non-ASCII: part of the key (which then names no field)
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let key = UnsafeBufferPointer(rebasing: bytes[start..<index])
            index += 1
            return Field(key)
        }

        /// The rest of a string that has escapes, from its first byte at `start`.
        mutating func escapedString(from start: Int) -> String? {
            var text = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(validating: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                    case UInt8(ascii: "n"): text.append(0x0A)
                    case UInt8(ascii: "t"): text.append(0x09)
                    case UInt8(ascii: "r"): text.append(0x0D)
                    case UInt8(ascii: "b"): text.append(0x08)
                    case UInt8(ascii: "f"): text.append(0x0C)
                    case UInt8(ascii: "u"):
                        guard var scalar = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(scalar) {
                            guard literalBytes("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { return nil }
                        text.append(contentsOf: String(Character(unicode)).utf8)
                    default:
                        return nil
                    }
                default:
                    guard byte >= 0x20 else { return nil }
                    text.append(byte)
                }
            }
            return nil
        }

        /// `word` at once, without skipping whitespace (inside a string).
        mutating func literalBytes(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = PercentEncoding.hexValue(bytes[index]) else { return nil }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// Skips one value of any type (nested up to 64 levels).
        mutating func skipValue(depth: Int) -> Bool {
            guard depth < 64 else { return false }
            skipWhitespace()
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                return skipString()
            case UInt8(ascii: "{"):
                index += 1
                if take(UInt8(ascii: "}")) { return true }
                repeat {
                    skipWhitespace()
                    guard skipString(), take(UInt8(ascii: ":")), skipValue(depth: depth + 1) else { return false }
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "}"))
            case UInt8(ascii: "["):
                index += 1
                if take(UInt8(ascii: "]")) { return true }
                repeat {
                    guard skipValue(depth: depth + 1) else { return false }
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "]"))
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default:
                return number()
            }
        }

        /// Skips a JSON number (strict grammar).
        mutating func number() -> Bool {
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digits = { (reader: inout Reader) -> Int in
                let from = reader.index
                while reader.index < reader.bytes.count, reader.bytes[reader.index] >= UInt8(ascii: "0"), reader.bytes[reader.index] <= UInt8(ascii: "9") {
                    reader.index += 1
                }
                return reader.index - from
            }
            let integerStart = index
            let integerDigits = digits(&self)
            guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return false }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits(&self) > 0 else { return false }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits(&self) > 0 else { return false }
            }
            return index > start
        }
    }
}
