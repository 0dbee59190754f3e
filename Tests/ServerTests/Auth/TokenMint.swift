// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import ProcessTestSupport
import XCTest

/// Makes JWTs the way an identity provider would, with a library nobody here wrote: PyJWT
/// (Debian's python3-jwt, which scripts/test installs) run by the system Python, with keys made
/// by the `openssl` command. The code under test never signs anything.
final class TokenMint {
    static let python = "/usr/bin/python3"
    let directory: URL
    /// 40 bytes: an HS256 secret above RFC 7518's 32-byte floor.
    let secret = "test-secret-0123456789-0123456789-abcdefgh"

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("token-mint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let check = try ChildProcess.run(Self.python, ["-c", "import jwt, cryptography"], errorOutput: .captured)
        guard check.termination == .exited(0) else {
            throw TokenMintFailure(description: "PyJWT is missing for \(Self.python): run scripts/test, or apt-get install -y python3-jwt python3-cryptography (\(check.errorOutput.suffix(200)))")
        }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// An EC P-256 key pair; returns (private PEM path, public PEM path).
    func ecKeyPair(_ name: String = "ec") throws -> (privateKey: String, publicKey: String) {
        try keyPair(name, ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
    }

    /// An RSA key pair of `bits`.
    func rsaKeyPair(_ name: String = "rsa", bits: Int = 2048) throws -> (privateKey: String, publicKey: String) {
        try keyPair(name, ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(bits)"])
    }

    private func keyPair(_ name: String, _ generate: [String]) throws -> (privateKey: String, publicKey: String) {
        let privateKey = directory.appendingPathComponent("\(name).key").path
        let publicKey = directory.appendingPathComponent("\(name).pub").path
        try openssl(generate + ["-out", privateKey])
        try openssl(["pkey", "-in", privateKey, "-pubout", "-out", publicKey])
        return (privateKey, publicKey)
    }

    private func openssl(_ arguments: [String]) throws {
        let result = try ChildProcess.run("/usr/bin/openssl", arguments, errorOutput: .captured)
        guard result.termination == .exited(0) else { throw TokenMintFailure(description: "openssl \(arguments.joined(separator: " ")): \(result.errorOutput)") }
    }

    /// A token for `claims` (a JSON object), signed with `algorithm` and `key` (the secret for HS256,
    /// a private-key PEM path otherwise; `none` signs nothing). `exp`/`nbf` given as offsets in
    /// seconds from now are turned into times here.
    func token(_ claims: [String: Any], algorithm: String = "HS256", key: String? = nil, expiresIn: Double? = 300, notBeforeIn: Double? = nil) throws -> String {
        var claims = claims
        let now = Date().timeIntervalSince1970
        if let expiresIn { claims["exp"] = Int((now + expiresIn).rounded()) }
        if let notBeforeIn { claims["nbf"] = Int((now + notBeforeIn).rounded()) }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: claims), as: UTF8.self)
        let script = """
            import json, sys, jwt
            claims = json.loads(sys.argv[1]); algorithm = sys.argv[2]; key = sys.argv[3]
            if algorithm == "none":
                key = None
            elif algorithm != "HS256":
                key = open(key).read()
            sys.stdout.write(jwt.encode(claims, key, algorithm=algorithm))
            """
        let result = try ChildProcess.run(Self.python, ["-c", script, json, algorithm, key ?? secret], errorOutput: .captured)
        guard result.termination == .exited(0) else { throw TokenMintFailure(description: "PyJWT failed: \(result.errorOutput)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// An HS256 token whose payload is exactly `payload`'s bytes (PyJWT's JWS layer signs them as
    /// given), for JSON spellings its claims encoder never writes, e.g. an escaped member name.
    func token(raw payload: String) throws -> String {
        let script = "import sys, jwt; sys.stdout.write(jwt.api_jws.encode(sys.argv[1].encode(), sys.argv[2], algorithm='HS256'))"
        let result = try ChildProcess.run(Self.python, ["-c", script, payload, secret], errorOutput: .captured)
        guard result.termination == .exited(0) else { throw TokenMintFailure(description: "PyJWT failed: \(result.errorOutput)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

struct TokenMintFailure: Error, CustomStringConvertible {
    let description: String
}
