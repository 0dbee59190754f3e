// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import ProcessTestSupport

/// `openssl s_client` against 127.0.0.1: what a standard TLS client is offered and agrees.
enum OpenSSLClient {
    struct Outcome {
        let connected: Bool
        let output: String
    }

    /// One handshake with `arguments` (e.g. `-tls1_2 -cipher X`); stdin is empty, so it closes at once.
    static func handshake(port: Int, _ arguments: [String]) throws -> Outcome {
        let client = try ChildProcess.run(
            "/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost"] + arguments,
            errorOutput: .intoOutput)
        return Outcome(connected: client.termination == .exited(0) && !client.output.contains("alert"), output: client.output)
    }
}
