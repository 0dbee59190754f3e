// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// Sends one request and delivers one complete response (any status), or fails with an
/// `UpstreamError` for transport problems. Status interpretation and retries happen above.
public protocol UpstreamTransport: Sendable {
    func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse>
}
