extension ByteStream.CloseReason: CustomStringConvertible {
    /// Words for messages people read (problem details, logs), never the case's name.
    public var description: String {
        switch self {
        case .local: "closed on this side"
        case .peerClosed: "the peer closed the connection"
        case .failed(let reason): reason
        }
    }
}
