// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Streams

extension DemoResponse {
    /// The answer as an HTTP response, as it is: the writer compresses it if the request asks
    /// for that. A truncated answer sends half its body, then fails: the engine closes without
    /// the last chunk, which the client sees as a connection cut mid-response.
    public var httpResponse: Response {
        guard let cut = truncatedAfter else {
            return Response(status: HTTPStatus(code: status), headers: fields, body: .bytes(body))
        }
        let partial = Array(body.prefix(cut))
        let stream = DataStream<[UInt8]> { watcher in
            watcher.data(partial)
            watcher.error(DemoCut())
            return Disposable()
        }
        return Response(status: HTTPStatus(code: status), headers: fields, body: .stream(stream))
    }
}

/// The failure that ends a truncated answer's body.
struct DemoCut: Error {}
