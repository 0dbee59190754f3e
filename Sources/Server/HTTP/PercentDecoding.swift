/// Decodes `%XX` escapes and `+` (query convention) into a UTF-8 string.
/// Malformed escapes are kept literally rather than rejected: a lenient
/// decoder never turns a readable request into an error.
enum PercentDecoding {
    static func decode(_ text: Substring, plusAsSpace: Bool = true) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"),
               let i1 = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex), i1 != utf8.endIndex,
               let i2 = utf8.index(i1, offsetBy: 1, limitedBy: utf8.endIndex), i2 != utf8.endIndex,
               let hi = hexValue(utf8[i1]), let lo = hexValue(utf8[i2]) {
                out.append(hi << 4 | lo)
                index = utf8.index(after: i2)
                continue
            }
            out.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = utf8.index(after: index)
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
