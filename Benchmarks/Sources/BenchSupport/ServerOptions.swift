import Foundation

/// The peer servers' command line: `--port N` (default 8081); they always bind 127.0.0.1.
/// Anything else, `--help` included, prints the usage instead of starting a server.
public struct ServerOptions: Sendable {
    public let host = "127.0.0.1"
    public let port: Int

    public init(arguments: [String] = CommandLine.arguments) {
        let name = URL(fileURLWithPath: arguments.first ?? "server").lastPathComponent
        let usage = "usage: \(name) [--port N]   (binds 127.0.0.1; default port 8081)\n"
        var port = 8081
        var rest = arguments.dropFirst().makeIterator()
        while let argument = rest.next() {
            switch argument {
            case "--port":
                guard let value = rest.next().flatMap({ Int($0) }), (0...65_535).contains(value) else {
                    Self.exit(usage: usage, status: 2)
                }
                port = value
            case "--help", "-h":
                Self.exit(usage: usage, status: 0)
            default:
                Self.exit(usage: "unknown argument \(argument)\n" + usage, status: 2)
            }
        }
        self.port = port
    }

    private static func exit(usage: String, status: Int32) -> Never {
        (status == 0 ? FileHandle.standardOutput : FileHandle.standardError).write(Data(usage.utf8))
        Foundation.exit(status)
    }
}

/// The body every server under test answers `GET /health` with, byte for byte the same as ours.
public enum HealthBody {
    public static let json = #"{"status":"ok"}"#
}
