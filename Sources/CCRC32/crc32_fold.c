// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#include "CCRC32.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <emmintrin.h>
#include <smmintrin.h>
#include <wmmintrin.h>

int ccrc32_fold_available(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & bit_PCLMUL) != 0 && (ecx & bit_SSE4_1) != 0;
}

/// `lane` carried over `constants`' distance and added (xor) to `next`.
__attribute__((target("pclmul,sse4.1"), always_inline))
static inline __m128i fold(__m128i lane, __m128i constants, __m128i next) {
    __m128i low = _mm_clmulepi64_si128(lane, constants, 0x00);
    __m128i high = _mm_clmulepi64_si128(lane, constants, 0x11);
    return _mm_xor_si128(_mm_xor_si128(low, high), next);
}

__attribute__((target("pclmul,sse4.1")))
uint32_t ccrc32_fold(uint32_t state, const uint8_t *bytes, size_t count) {
    const __m128i *block = (const __m128i *)bytes;
    __m128i lanes[4];
    for (int i = 0; i < 4; i++) lanes[i] = _mm_loadu_si128(block + i);
    lanes[0] = _mm_xor_si128(lanes[0], _mm_cvtsi32_si128((int)state));
    block += 4;
    count -= 64;

    // The paper's constants for the gzip polynomial, bit-reflected: x^(4*128+32) and
    // x^(4*128-32) mod P fold a lane over 512 bits, x^(128+32) and x^(128-32) mod P over 128,
    // x^64 mod P the last 64; then P and its Barrett quotient.
    // Four lanes, each folded over the 64 bytes that follow it.
    const __m128i by512 = _mm_set_epi64x((long long)0x01c6e41596ULL, (long long)0x0154442bd4ULL);
    while (count >= 64) {
        for (int i = 0; i < 4; i++) lanes[i] = fold(lanes[i], by512, _mm_loadu_si128(block + i));
        block += 4;
        count -= 64;
    }

    // The four lanes into one, then the remaining 16-byte blocks into it.
    const __m128i by128 = _mm_set_epi64x((long long)0x00ccaa009eULL, (long long)0x01751997d0ULL);
    __m128i lane = lanes[0];
    for (int i = 1; i < 4; i++) lane = fold(lane, by128, lanes[i]);
    while (count >= 16) {
        lane = fold(lane, by128, _mm_loadu_si128(block));
        block += 1;
        count -= 16;
    }

    // 128 bits to 64: the low half carried over 64 bits onto the high half.
    const __m128i low32 = _mm_setr_epi32(-1, 0, -1, 0);
    __m128i folded = _mm_xor_si128(_mm_srli_si128(lane, 8), _mm_clmulepi64_si128(lane, by128, 0x10));
    // 64 bits to 32 plus 64: the low 32 carried over 32 bits.
    const __m128i by64 = _mm_set_epi64x(0, (long long)0x0163cd6124ULL);
    folded = _mm_xor_si128(_mm_srli_si128(folded, 4), _mm_clmulepi64_si128(_mm_and_si128(folded, low32), by64, 0x00));

    // Barrett reduction to the 32-bit remainder.
    const __m128i polynomial = _mm_set_epi64x((long long)0x01f7011641ULL, (long long)0x01db710641ULL);
    __m128i quotient = _mm_clmulepi64_si128(_mm_and_si128(folded, low32), polynomial, 0x10);
    __m128i product = _mm_clmulepi64_si128(_mm_and_si128(quotient, low32), polynomial, 0x00);
    return (uint32_t)_mm_extract_epi32(_mm_xor_si128(folded, product), 1);
}

#else

int ccrc32_fold_available(void) { return 0; }

uint32_t ccrc32_fold(uint32_t state, const uint8_t *bytes, size_t count) {
    (void)bytes;
    (void)count;
    return state;
}

#endif
