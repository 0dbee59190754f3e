// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation

/// The peer servers' command line: `--port N` (default 8081), and for the peers that call an
/// upstream `--upstream URL`, `--upstream-gzip true|false` (default false: identity bodies, as
/// ours' `--upstream-gzip false`) and `--sorted-keys true|false` (default false: the answer's JSON
/// keys as the encoder leaves them; true sorts them, the setting of the figures before issue 25); for
/// the peers that serve TLS `--tls-cert PEM --tls-key PEM` (both or neither); an `https://` upstream
/// signed by a test CA is trusted with `--upstream-ca-file PEM`. They always bind 127.0.0.1. Anything else, `--help` included, prints the usage instead of
/// starting a server.
public struct ServerOptions: Sendable {
    public let host = "127.0.0.1"
    public let port: Int
    /// The upstream's base URL (`http://127.0.0.1:PORT`, or `https://…`), nil when not given.
    public let upstream: String?
    /// Ask the upstream for `Accept-Encoding: gzip` and inflate what it sends.
    public let upstreamGzip: Bool
    /// Encode the answer with `JSONEncoder.OutputFormatting.sortedKeys`.
    public let sortedKeys: Bool
    /// The CA (PEM) an `https://` upstream's certificate is checked against, nil for the system's.
    public let upstreamCAFile: String?
    /// The PEM certificate and private key to serve TLS with, nil for cleartext.
    public let tls: (certificate: String, key: String)?

    public init(arguments: [String] = CommandLine.arguments) {
        let name = URL(fileURLWithPath: arguments.first ?? "server").lastPathComponent
        let usage = "usage: \(name) [--port N] [--upstream URL] [--upstream-gzip true|false] [--sorted-keys true|false]"
            + " [--upstream-ca-file PEM] [--tls-cert PEM --tls-key PEM]   (binds 127.0.0.1; default port 8081, both switches false)\n"
        var port = 8081
        var upstream: String?
        var upstreamCAFile: String?
        var upstreamGzip = false
        var sortedKeys = false
        var tlsCert: String?
        var tlsKey: String?
        func flag(_ name: String, _ value: String?) -> Bool {
            switch value {
            case "true": return true
            case "false": return false
            default: Self.exit(usage: "\(name) needs true or false\n" + usage, status: 2)
            }
        }
        var rest = arguments.dropFirst().makeIterator()
        while let argument = rest.next() {
            switch argument {
            case "--port":
                guard let value = rest.next().flatMap({ Int($0) }), (0...65_535).contains(value) else {
                    Self.exit(usage: usage, status: 2)
                }
                port = value
            case "--upstream":
                guard let value = rest.next(), value.hasPrefix("http://") || value.hasPrefix("https://") else {
                    Self.exit(usage: "--upstream needs an http:// or https:// URL\n" + usage, status: 2)
                }
                upstream = value
            case "--upstream-ca-file":
                guard let value = rest.next(), !value.hasPrefix("--") else {
                    Self.exit(usage: "--upstream-ca-file needs a PEM file path\n" + usage, status: 2)
                }
                upstreamCAFile = value
            case "--upstream-gzip":
                upstreamGzip = flag(argument, rest.next())
            case "--sorted-keys":
                sortedKeys = flag(argument, rest.next())
            case "--tls-cert", "--tls-key":
                guard let value = rest.next(), !value.hasPrefix("--") else {
                    Self.exit(usage: "\(argument) needs a PEM file path\n" + usage, status: 2)
                }
                if argument == "--tls-cert" { tlsCert = value } else { tlsKey = value }
            case "--help", "-h":
                Self.exit(usage: usage, status: 0)
            default:
                Self.exit(usage: "unknown argument \(argument)\n" + usage, status: 2)
            }
        }
        self.port = port
        self.upstream = upstream
        self.upstreamCAFile = upstreamCAFile
        self.upstreamGzip = upstreamGzip
        self.sortedKeys = sortedKeys
        switch (tlsCert, tlsKey) {
        case let (certificate?, key?): tls = (certificate, key)
        case (nil, nil): tls = nil
        default: Self.exit(usage: "--tls-cert and --tls-key go together\n" + usage, status: 2)
        }
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
