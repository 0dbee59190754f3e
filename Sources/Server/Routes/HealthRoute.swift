// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Streams

/// `GET /health`: the process is up and serving.
enum HealthRoute {
    static let body = Array(#"{"status":"ok"}"#.utf8)
    /// The same answer every time: made once, not per request.
    static let response = Response.json(body)

    static func handle(_ request: Request) -> DataStream<Response> {
        .just(response)
    }
}
