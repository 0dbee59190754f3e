// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import ProcessTestSupport

/// A throwaway certificate and key for `localhost`, made by the `openssl` CLI in a
/// temporary folder at test time.
public struct SelfSignedCertificate: Sendable {
    public struct CreationFailed: Error, CustomStringConvertible {
        public let description: String
    }

    public let directory: URL
    public var certificatePath: String { directory.appendingPathComponent("cert.pem").path }
    public var keyPath: String { directory.appendingPathComponent("key.pem").path }

    /// - Parameter rsa: an RSA-2048 key instead of P-256, for tests about RSA key-exchange suites.
    public init(label: String, rsa: Bool = false) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let openssl = try ChildProcess.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey"] + (rsa ? ["rsa:2048"] : ["ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]) + ["-nodes",
            "-keyout", keyPath, "-out", certificatePath, "-days", "1", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost",
        ])
        guard openssl.termination == .exited(0) else {
            throw CreationFailed(description: "openssl req ended with \(openssl.termination): \(openssl.errorOutput)")
        }
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
