// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTestSupport
import XCTest
@testable import Server

#if canImport(Glibc)
import Glibc
#endif

/// The key file is read once: a rewrite that empties it right after that read (a non-atomic
/// `>` during a restart) cannot leave the service running with its protection off.
final class KeyFileRaceTests: XCTestCase {
    func testAKeyFileEmptiedRightAfterItsReadLeavesEveryAreaProtected() throws {
        let mint = try TokenMint()
        let publicKey = try mint.ecKeyPair().publicKey
        let truncator = try TruncateAfterFirstRead(path: publicKey)
        let service = try ServiceProcess(["--host", "127.0.0.1", "--port", "0", "--auth-jwt-public-key", publicKey])
        defer { service.signal(SIGTERM); _ = service.exitStatus() }
        let line = try XCTUnwrap(service.firstLine(), "no first line: \(service.errorOutput)")
        XCTAssertTrue(truncator.waitUntilTruncated(within: 10), "the service never read the key file")
        XCTAssertTrue(line.contains("protecting events,metrics,users"), line)
        let port = try XCTUnwrap(line.firstMatch(of: /listening on http:\/\/127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) }, line)
        for path in ["/users?limit=1", "/metrics", "/events"] {
            let client = try RawHTTPClient(port: port)
            try client.send("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            XCTAssertEqual(try client.readResponse().status, 401, "\(path) answered without a token")
        }
    }
}

/// Watches a file with inotify and empties it the moment the first reader closes it.
private final class TruncateAfterFirstRead: @unchecked Sendable {  // `done` is set once by the watcher thread, read after `finished` signals
    private let finished = DispatchSemaphore(value: 0)
    private var done = false

    init(path: String) throws {
        let watch = inotify_init1(Int32(IN_CLOEXEC))
        guard watch >= 0, inotify_add_watch(watch, path, UInt32(IN_CLOSE_NOWRITE)) >= 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "inotify on \(path): \(String(cString: strerror(errno)))"])
        }
        Thread.detachNewThread { [self] in
            defer { close(watch) }
            var poller = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
            var buffer = [UInt8](repeating: 0, count: 4096)
            // Bounded: 10 s for the service to start and read its key.
            defer { finished.signal() }
            guard poll(&poller, 1, 10_000) == 1, read(watch, &buffer, buffer.count) > 0 else { return }
            done = truncate(path, 0) == 0
        }
    }

    func waitUntilTruncated(within seconds: Int) -> Bool {
        finished.wait(timeout: .now() + .seconds(seconds)) == .success && done
    }
}
