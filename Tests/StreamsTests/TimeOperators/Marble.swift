import Streams

/// One event and the virtual time, in milliseconds, at which it happened (or is to happen).
///
///     XCTAssertEqual(recorder.marbles, [.at(300, .data("ab")), .at(500, .end)])
struct Marble<Element: Sendable>: Sendable {
    let time: Int
    let event: Event<Element>

    static func at(_ milliseconds: Int, _ event: Event<Element>) -> Marble {
        Marble(time: milliseconds, event: event)
    }
}

extension Marble: Equatable where Element: Equatable {}

extension Marble: CustomStringConvertible {
    var description: String { "\(event) at \(time) ms" }
}

extension Duration {
    /// Whole milliseconds, the unit marbles are written in.
    var marbleMilliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
