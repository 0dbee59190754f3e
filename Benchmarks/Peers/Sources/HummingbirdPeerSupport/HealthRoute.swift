// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Hummingbird
import PeerSupport

extension Router {
    /// `GET /health` as the Hummingbird peers answer it: stream-service's body and content type.
    public func addHealthRoute() {
        get("health") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: HealthBody.json))
            )
        }
    }
}
