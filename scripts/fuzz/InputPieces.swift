// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// Shared by the libFuzzer harnesses: the input cut into pieces whose sizes
// (1 to 13 bytes) come from the input itself, as a socket might deliver it.

func forEachPiece(of input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
    let size = input.count
    var offset = 0
    var step = size > 0 ? Int(input[0] % 7) + 1 : 1
    while offset < size {
        let end = min(size, offset + step)
        body(UnsafeRawBufferPointer(rebasing: input[offset..<end]))
        offset = end
        step = Int(input[offset % max(size, 1)] % 13) + 1
    }
}
