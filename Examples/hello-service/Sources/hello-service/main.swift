// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import HelloRoutes

#if canImport(Glibc)
import Glibc
#endif

// PORT (default 8080) and UPSTREAM (the URL /quote calls); runs until SIGTERM or SIGINT.
let port = Int(getenv("PORT").map { String(cString: $0) } ?? "") ?? 8080
let upstream = getenv("UPSTREAM").map { String(cString: $0) } ?? "http://127.0.0.1:9999/quote"
let server = HTTPServer(
    configuration: HTTPServerConfiguration(host: "127.0.0.1", port: port),
    router: HelloRoutes(upstream: upstream).router)
try server.serveUntilTerminated { port in print("hello-service on http://127.0.0.1:\(port)") }
