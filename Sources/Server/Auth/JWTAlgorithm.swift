// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The JWS algorithms the service verifies (RFC 7518 §3.1). The configured key fixes the one
/// accepted: a token naming any other (`none`, or HS256 against an RSA key, the "RS/HS
/// confusion" where the public key is misused as an HMAC secret) is refused before any check.
enum JWTAlgorithm: String, Sendable, Equatable {
    case hs256 = "HS256"
    case rs256 = "RS256"
    case es256 = "ES256"
}
