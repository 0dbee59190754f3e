// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Streams

extension DemoUpstream {
    /// The answer as the HTTP server sends it, each stored answer gzipped once by `encodings`.
    /// Without latency it is made when asked, as the server watches a handler's stream at once: one
    /// stage instead of three (`just`, the answer's `map`, the encoding's `map`) (the figure:
    /// Benchmarks/README.md).
    package func httpResponse(to request: DemoRequest, acceptEncoding: String?, encodings: DemoGzipVariants) -> DataStream<Response> {
        guard configuration.latency > .zero else {
            return .just(encodings.response(for: answer(request), acceptEncoding: acceptEncoding))
        }
        return respond(to: request).map { encodings.response(for: $0, acceptEncoding: acceptEncoding) }
    }
}
