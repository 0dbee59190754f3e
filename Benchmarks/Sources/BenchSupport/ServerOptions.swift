/// The peer servers' command line: `--port N` (default 8081); they always bind 127.0.0.1.
public struct ServerOptions: Sendable {
    public let host = "127.0.0.1"
    public let port: Int

    public init(arguments: [String] = CommandLine.arguments) {
        var port = 8081
        if let index = arguments.firstIndex(of: "--port"), index + 1 < arguments.count,
           let value = Int(arguments[index + 1]) {
            port = value
        }
        self.port = port
    }
}

/// The body every server under test answers `GET /health` with, byte for byte the same as ours.
public enum HealthBody {
    public static let json = #"{"status":"ok"}"#
}
