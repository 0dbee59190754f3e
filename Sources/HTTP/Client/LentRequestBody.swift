// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A request body sent from bytes that lie elsewhere, in pieces, with no array made of them
/// (`HTTPClientRequest.lentBody`): an OTLP export's batch, its spans written into one buffer as
/// they ended and framed by a hundred bytes or so, was copied whole into the request's
/// `[UInt8]` body: a `memcpy` of every span's bytes, which callgrind counts per byte (`rep movsb`):
/// the batch's export 12.3 k -> 0.8 k instructions a traced `/users` request.
/// It does not change once made: the client reads it on its loop when the request is written,
/// again for a retry.
public protocol LentRequestBody: AnyObject, Sendable {
    /// The bytes of all the pieces.
    var count: Int { get }
    /// Hands `piece` each piece in order, where it lies, for the length of the call.
    func forEachPiece(_ piece: (UnsafeRawBufferPointer) -> Void)
}
