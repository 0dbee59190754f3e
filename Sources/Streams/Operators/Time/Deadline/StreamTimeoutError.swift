// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The error `timeout(_:scheduler:)` fails with when its source stays silent too long.
public struct StreamTimeoutError: Error, Equatable, CustomStringConvertible {
    /// The time the source was allowed between events.
    public let timeout: Duration

    /// The error of a `timeout` that waited `timeout` in vain.
    public init(timeout: Duration) {
        self.timeout = timeout
    }

    public var description: String {
        "no event within \(timeout)"
    }
}
