// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Streams

/// `GET /openapi.yaml`: the API description, compiled into the binary so it is
/// served the same from a checkout and from the container. `text/yaml` (RFC 9512
/// also registers it) makes a browser show the text rather than download it.
enum OpenAPIRoute {
    static let contentType = "text/yaml; charset=utf-8"
    static let document = EmbeddedDocument(contentType: contentType, bytes: OpenAPIDocument.bytes, headers: ["X-Content-Type-Options": "nosniff"])

    static func handle(_ request: Request) -> DataStream<Response> {
        .just(document.response(to: request))
    }
}
