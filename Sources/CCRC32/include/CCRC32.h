// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#ifndef CCRC32_H
#define CCRC32_H

#include <stddef.h>
#include <stdint.h>

/// 1 when this CPU has the carry-less multiply (PCLMULQDQ) and SSE4.1 that `ccrc32_fold` needs, else 0.
int ccrc32_fold_available(void);

/// The gzip CRC-32 register (reflected polynomial 0xEDB88320, not inverted: callers invert it
/// before and after, as zlib's `crc32` does) after `count` more bytes, folded 64 bytes at a time
/// with carry-less multiplies (Gopal et al., "Fast CRC Computation for Generic Polynomials Using
/// PCLMULQDQ Instruction", Intel, 2009). `count` must be at least 64 and a multiple of 16, and
/// `ccrc32_fold_available()` must have answered 1.
uint32_t ccrc32_fold(uint32_t state, const uint8_t *bytes, size_t count);

#endif
