// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import NetCore
import ProcessTestSupport

/// A real `redis-server` (Debian's package) for one test: its own free loopback
/// port, no persistence (`--save "" --appendonly no`) and a working directory of its own
/// (a replica's full sync writes `dump.rdb` there, which a server started in the same
/// directory would load), started and stopped by PID
/// (a `ChildProcess`: killed and reaped when the last reference goes).
///
/// A missing binary or a server that does not answer PING within 5 s throws an
/// error naming the cause, so a test needing Redis fails rather than skips.
// @unchecked: `process` is only replaced by `restart()`, which a test calls from its one thread.
public final class RedisServerProcess: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static let executable = "/usr/bin/redis-server"

    public let port: Int
    public let password: String?
    /// For TLS servers: the certificate directory; the plain port is then closed.
    public let tls: (certificate: String, key: String)?
    private let extraArguments: [String]
    /// For a sentinel: its configuration file (rewritten by the sentinel as it learns).
    private let sentinelConfiguration: String?
    /// The working directory of a data node, removed with it.
    private let directory: String?
    private var process: ChildProcess

    /// - Parameters:
    ///   - password: `requirepass`, so clients must AUTH.
    ///   - tls: serve TLS only on `port`, with this PEM certificate and key.
    public init(password: String? = nil, tls: (certificate: String, key: String)? = nil, arguments: [String] = []) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw Failure(description: "redis-server is not installed at \(Self.executable): run scripts/test, which installs Debian's redis-server, or apt-get install redis-server")
        }
        self.password = password
        self.tls = tls
        sentinelConfiguration = nil
        port = try Self.freeLoopbackPort()
        let directory = NSTemporaryDirectory() + "redis-\(getpid())-\(port)-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        self.directory = directory
        extraArguments = ["--dir", directory] + arguments
        process = try Self.launch(port: port, password: password, tls: tls, extraArguments: extraArguments)
        try waitUntilListening()
    }

    /// A sentinel (`redis-server FILE --sentinel`) on its own loopback port; `configuration` is the
    /// file's text after the `port` line (`sentinel monitor …`), written to `directory`.
    public init(sentinel configuration: String, directory: String) throws {
        password = nil
        tls = nil
        extraArguments = []
        port = try Self.freeLoopbackPort()
        let file = "\(directory)/sentinel-\(port).conf"
        let text = "port \(port)\nbind 127.0.0.1\ndaemonize no\nlogfile \"\"\ndir \(directory)\n\(configuration)\n"
        guard FileManager.default.createFile(atPath: file, contents: Data(text.utf8)) else {
            throw Failure(description: "cannot write \(file)")
        }
        sentinelConfiguration = file
        self.directory = nil
        process = try ChildProcess(Self.executable, [file, "--sentinel"], errorOutput: .intoOutput)
        try waitUntilListening()
    }

    deinit {
        stop()
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }

    public var pid: Int32 { process.pid }

    /// False once stopped (or ended on its own).
    public var isRunning: Bool { process.isRunning }

    /// `redis://[:password@]127.0.0.1:port` (`rediss://localhost:port` for TLS, matching the certificate's name).
    public var url: String {
        let scheme = tls == nil ? "redis" : "rediss"
        let host = tls == nil ? "127.0.0.1" : "localhost"
        return "\(scheme)://\(password.map { ":\($0)@" } ?? "")\(host):\(port)"
    }

    /// Freezes the server (SIGSTOP): connections stay open, nothing is answered.
    public func pause() { process.signal(SIGSTOP) }

    /// Thaws a paused server (SIGCONT).
    public func resume() { process.signal(SIGCONT) }

    /// Kills the server (SIGKILL) and waits for it to exit.
    public func stop() {
        process.terminate()
    }

    /// Kills the server and starts an empty one on the same port (a sentinel keeps its file).
    public func restart() throws {
        stop()
        process = if let sentinelConfiguration {
            try ChildProcess(Self.executable, [sentinelConfiguration, "--sentinel"], errorOutput: .intoOutput)
        } else {
            try Self.launch(port: port, password: password, tls: tls, extraArguments: extraArguments)
        }
        try waitUntilListening()
    }

    /// Runs `redis-cli` against this server, e.g. `["XTRIM", "events", "MAXLEN", "0"]`; returns its output.
    @discardableResult
    public func cli(_ arguments: [String]) throws -> String {
        var all = ["-h", "127.0.0.1", "-p", String(port)]
        if let password { all += ["--no-auth-warning", "-a", password] }
        return try ChildProcess.run("/usr/bin/redis-cli", all + arguments, errorOutput: .discarded).output
    }

    /// `total_connections_received` from INFO: how often clients have connected so far.
    public var connectionsReceived: Int {
        let info = (try? cli(["INFO", "stats"])) ?? ""
        let line = info.split(whereSeparator: \.isNewline).first { $0.hasPrefix("total_connections_received:") }
        return line.flatMap { Int($0.split(separator: ":")[1]) } ?? 0
    }

    private static func launch(port: Int, password: String?, tls: (certificate: String, key: String)?, extraArguments: [String]) throws -> ChildProcess {
        var arguments = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--logfile", ""]
        if let tls {
            arguments += ["--port", "0", "--tls-port", String(port), "--tls-cert-file", tls.certificate, "--tls-key-file", tls.key, "--tls-auth-clients", "no"]
        } else {
            arguments += ["--port", String(port)]
        }
        if let password { arguments += ["--requirepass", password] }
        // Its log (stdout) is kept for the message of a failed start.
        return try ChildProcess(executable, arguments + extraArguments, errorOutput: .intoOutput)
    }

    /// Polls (every 10 ms, 5 s at most) until the port accepts a connection.
    private func waitUntilListening() throws {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if let termination = process.termination {
                throw Failure(description: "redis-server ended at start (port \(port)), \(termination): \(process.output.suffix(500))")
            }
            if Self.accepts(port: port) { return }
            usleep(10_000)
        }
        stop()
        throw Failure(description: "redis-server did not listen on 127.0.0.1:\(port) within 5 s")
    }

    private static func accepts(port: Int) -> Bool {
        guard let address = try? SocketAddress.resolve(host: "127.0.0.1", port: port).first,
              let (socket, connected) = try? Socket.startConnect(to: address) else { return false }
        defer { socket.close() }
        if connected { return true }
        var poller = pollfd(fd: socket.descriptor, events: Int16(POLLOUT), revents: 0)
        return poll(&poller, 1, 100) == 1 && socket.pendingError() == 0
    }

    /// A port the kernel just handed out for 127.0.0.1, released for redis-server to bind.
    private static func freeLoopbackPort() throws -> Int {
        let socket = try Socket.listen(host: "127.0.0.1", port: 0, backlog: 1)
        defer { socket.close() }
        guard let port = socket.localAddress()?.port else { throw Failure(description: "no free loopback port") }
        return port
    }
}
