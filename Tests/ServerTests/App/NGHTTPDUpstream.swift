// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import NetCore
import ProcessTestSupport

/// Debian's `nghttpd` (nghttp2's own server, HTTP/2 only) over TLS with a throwaway certificate for
/// `localhost`, serving GitHub-shaped files: `/users` and `/users/{login}` (folders: nghttpd
/// redirects each to its `/`, whose `index.html` is the answer, so the redirects are followed over
/// h2 too), `/users/{login}/repos` and `/avatars/{id}`. Run with `-v`, so its output
/// shows every frame it received (the connections it accepted, the RST_STREAMs).
final class NGHTTPDUpstream {
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    static let executable = "/usr/sbin/nghttpd"

    let certificate: SelfSignedCertificate
    let port: Int
    let users: Int
    private let documents: URL
    private let process: ChildProcess

    init(users: Int = 16, avatarBytes: Int = 48 * 1024) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw Missing(description: "nghttpd is missing (apt-get install -y nghttp2-server): the HTTP/2 upstream tests need a third-party HTTP/2 server")
        }
        certificate = try SelfSignedCertificate(label: "nghttpd")
        self.users = users
        let socket = try Socket.listen(host: "127.0.0.1", port: 0)
        port = socket.localAddress()?.port ?? 0
        socket.close()
        documents = certificate.directory.appendingPathComponent("htdocs")
        try Self.writeDocuments(into: documents, users: users, avatarBytes: avatarBytes, origin: "https://localhost:\(port)")
        process = try ChildProcess(Self.executable, [
            "--address=127.0.0.1", "-v", "-d", documents.path, String(port), certificate.keyPath, certificate.certificatePath,
        ])
        let deadline = Date().addingTimeInterval(10)
        while (try? RawHTTPClient(port: port, timeout: 1)) == nil {
            guard Date() < deadline, process.isRunning else {
                throw Missing(description: "nghttpd did not listen on \(port): \(process.output) \(process.errorOutput)")
            }
            usleep(20_000)
        }
    }

    deinit {
        process.terminate()
        certificate.remove()
    }

    var url: String { "https://localhost:\(port)" }
    var output: String { process.output }

    /// HTTP/2 connections nghttpd accepted: those whose SETTINGS it received (each frame line names
    /// its connection, `[id=N]`; the readiness probe's bare TCP connect has none).
    var connections: Int {
        // Line by line: a regular expression over megabytes of frame lines took minutes.
        Set(lines.filter { $0.contains("recv SETTINGS frame") }.compactMap { $0.split(separator: "]").first }).count
    }

    /// RST_STREAMs nghttpd received, with their error codes as it names them (`CANCEL`).
    var resetsReceived: [String] {
        let lines = lines
        return lines.indices.dropLast().filter { lines[$0].contains("recv RST_STREAM frame") }.compactMap { index in
            lines[index + 1].split(separator: "error_code=").last?.prefix { $0 != "(" }.description
        }
    }

    private var lines: [Substring] { output.split(separator: "\n") }

    static func avatar(_ id: Int, bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ id) } }

    private static func writeDocuments(into root: URL, users: Int, avatarBytes: Int, origin: String) throws {
        let manager = FileManager.default
        for folder in ["users", "avatars"] { try manager.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true) }
        func user(_ id: Int) -> [String: Any] {
            ["login": "user\(id)", "id": id, "avatar_url": "\(origin)/avatars/\(id)", "type": "User"]
        }
        let page = try JSONSerialization.data(withJSONObject: (1...users).map(user))
        try page.write(to: root.appendingPathComponent("users/index.html"))
        for id in 1...users {
            var profile = user(id)
            profile["name"] = "User \(id)"
            profile["public_repos"] = id
            let folder = root.appendingPathComponent("users/user\(id)")
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            try JSONSerialization.data(withJSONObject: profile).write(to: folder.appendingPathComponent("index.html"))
            let repos: [[String: Any]] = [["id": id, "name": "repo\(id)", "stargazers_count": id, "language": "Swift", "fork": false]]
            try JSONSerialization.data(withJSONObject: repos).write(to: folder.appendingPathComponent("repos"))
            try Data(avatar(id, bytes: avatarBytes)).write(to: root.appendingPathComponent("avatars/\(id)"))
        }
    }
}
