// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The error a time-based stream fails with when given a period it cannot work
/// with: a zero or negative period would emit without end at one instant.
public struct InvalidDurationError: Error, Equatable, CustomStringConvertible {
    /// The operator that refused the duration, such as `"interval"`.
    public let operatorName: String
    /// The duration it was given.
    public let duration: Duration

    /// The error of `operatorName` refusing `duration`.
    public init(operatorName: String, duration: Duration) {
        self.operatorName = operatorName
        self.duration = duration
    }

    public var description: String {
        "\(operatorName) needs a positive duration, got \(duration)"
    }
}
