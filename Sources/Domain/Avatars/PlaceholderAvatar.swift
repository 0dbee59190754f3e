// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The image that stands in for an avatar the upstream failed to deliver
/// (`onAvatarError=placeholder`): a plain grey 64×64 PNG, the same for everyone.
public enum PlaceholderAvatar {
    public static let image = AvatarImage(
        bytes: (try? PNGEncoder.encode(width: 64, height: 64, rgb: [UInt8](repeating: 200, count: 64 * 64 * 3))) ?? [],
        contentType: "image/png")
}
