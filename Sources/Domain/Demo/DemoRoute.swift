/// What a demo request's path asks for, read from its bytes in one pass: splitting it into
/// an array of `Substring`s first cost about 4,500 instructions a request.
///
/// The path's segments are what lies between slashes, empty ones skipped (`//users/` is
/// `/users`), as a split on "/" makes them; no route has more than three.
enum DemoRoute: Equatable {
    /// `/rate_limit`
    case rateLimit
    /// `/{login}.png` on the API origin, which redirects to the avatar origin.
    case avatarRedirect(login: Substring)
    /// `/u/{id}`; nil when the id is no number.
    case avatar(id: Int?)
    /// `/users`
    case users
    /// `/users/{login}`
    case user(login: Substring)
    /// `/users/{login}/repos`
    case repos(login: Substring)
    case notFound

    init(path: Substring) {
        var first = Substring(), second = Substring(), third = Substring()
        var count = 0
        var isASCII = true
        let utf8 = path.utf8
        var start = utf8.startIndex
        var index = start
        // One pass over the bytes, remembering the first three segments and counting them.
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte >= 0x80 {
                isASCII = false
                break
            }
            if byte == UInt8(ascii: "/") {
                if start != index { Self.keep(path[start..<index], at: &count, first: &first, second: &second, third: &third) }
                start = utf8.index(after: index)
            }
            utf8.formIndex(after: &index)
        }
        guard isASCII else {
            // Outside ASCII a slash followed by a combining mark is one character with it, and no separator.
            let segments = path.split(separator: "/")
            self = Self.match(
                count: segments.count, segments.first ?? "", segments.count > 1 ? segments[1] : "",
                segments.count > 2 ? segments[2] : "", isASCII: false)
            return
        }
        if start != utf8.endIndex { Self.keep(path[start...], at: &count, first: &first, second: &second, third: &third) }
        self = Self.match(count: count, first, second, third, isASCII: true)
    }

    private static func keep(
        _ segment: Substring, at count: inout Int, first: inout Substring, second: inout Substring, third: inout Substring
    ) {
        switch count {
        case 0: first = segment
        case 1: second = segment
        case 2: third = segment
        default: break
        }
        count += 1
    }

    private static func match(count: Int, _ first: Substring, _ second: Substring, _ third: Substring, isASCII: Bool) -> DemoRoute {
        switch count {
        case 1 where first == "rate_limit": .rateLimit
        case 1 where first == "users": .users
        case 1 where isASCII ? first.utf8.suffix(4).elementsEqual(".png".utf8) : first.hasSuffix(".png"):
            .avatarRedirect(login: isASCII ? Substring(first.utf8.dropLast(4)) : first.dropLast(4))
        case 2 where first == "u": .avatar(id: Int(second))
        case 2 where first == "users": .user(login: second)
        case 3 where first == "users" && third == "repos": .repos(login: second)
        default: .notFound
        }
    }
}
