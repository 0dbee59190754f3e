import Foundation

/// `openssl s_client` against 127.0.0.1: what a standard TLS client is offered and agrees.
enum OpenSSLClient {
    struct Outcome {
        let connected: Bool
        let output: String
    }

    /// One handshake with `arguments` (e.g. `-tls1_2 -cipher X`); stdin is empty, so it closes at once.
    static func handshake(port: Int, _ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Outcome(connected: process.terminationStatus == 0 && !text.contains("alert"), output: text)
    }
}
