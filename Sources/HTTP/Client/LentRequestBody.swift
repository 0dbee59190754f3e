// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A request body sent from bytes that lie elsewhere, in pieces, with no array made of them
/// (`HTTPClientRequest.lentBody`): for a body already written into buffers of its own (an OTLP
/// export's batch, its spans written into one buffer as they ended, framed by a few bytes), which
/// as a `[UInt8]` body was copied whole once more, a `memcpy` of every byte (the ledger of
/// Benchmarks/README.md has the figure). It does not change once made: the client reads it on
/// its loop when the request is written, and again for a retry.
public protocol LentRequestBody: AnyObject, Sendable {
    /// The bytes of all the pieces.
    var count: Int { get }
    /// Hands `piece` each piece in order, where it lies, for the length of the call.
    func forEachPiece(_ piece: (UnsafeRawBufferPointer) -> Void)
}
