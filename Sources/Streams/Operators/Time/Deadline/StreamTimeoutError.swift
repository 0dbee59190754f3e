/// The error `timeout(_:scheduler:)` fails with when its source stays silent too long.
public struct StreamTimeoutError: Error, Equatable, CustomStringConvertible {
    /// The time the source was allowed between events.
    public let timeout: Duration

    /// The error of a `timeout` that waited `timeout` in vain.
    public init(timeout: Duration) {
        self.timeout = timeout
    }

    public var description: String {
        "no event within \(timeout)"
    }
}
