// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Avatar bytes as the upstream served them.
public struct AvatarImage: Sendable, Equatable {
    public let bytes: [UInt8]
    public let contentType: String

    public init(bytes: [UInt8], contentType: String) {
        self.bytes = bytes
        self.contentType = contentType
    }
}
