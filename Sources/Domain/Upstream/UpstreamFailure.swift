// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams

/// How a GitHub call ended when it failed for good: the classified error, the stage that
/// made the call, and how many retries were spent first (0 when the error was final at once).
public struct UpstreamFailure: RetryAfterError, Sendable, Equatable, CustomStringConvertible {
    public let error: UpstreamError
    public let stage: UpstreamStage
    public let retries: Int

    public init(_ error: UpstreamError, stage: UpstreamStage, retries: Int = 0) {
        self.error = error
        self.stage = stage
        self.retries = retries
    }

    /// The wait the classified error names (`UpstreamError.retryAfter`).
    public var retryAfter: Duration? { error.retryAfter }

    public var description: String {
        retries > 0 ? "\(stage): \(error) after \(retries) retries" : "\(stage): \(error)"
    }
}
