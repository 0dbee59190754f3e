// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension ChunkedCodec {
    /// Decodes a chunked body incrementally, for requests and responses alike: bytes may
    /// arrive in any split, each is examined once, and limits are checked before anything
    /// is buffered past them. Trailer fields are validated like header fields, then dropped.
    struct Decoder {
        struct Limits: Sendable {
            /// Decoded body bytes → `bodyTooLarge`.
            var maxBodyBytes: Int
            /// Bytes of the trailer section, CRLFs included → `headersTooLarge`.
            var maxTrailerBytes: Int
            /// Trailer fields → `headersTooLarge`.
            var maxTrailerFields: Int
        }

        enum Outcome: Equatable {
            case needMore
            /// The last chunk and the trailer section are in; the body is complete.
            case done
            case failed(HTTPParseError)
        }

        /// A size line is hex digits and short extensions; 1 KiB is far beyond any honest one.
        static let maxSizeLineBytes = 1024

        private enum State {
            case sizeLine
            case data(remaining: Int)
            case dataEnd(sawCR: Bool)
            case trailerLine
            case finished(Outcome)
        }

        private let limits: Limits
        private var state = State.sizeLine
        private var line: [UInt8] = []
        private var decodedBytes = 0
        private var trailerBytes = 0
        private var trailerFields = 0

        init(limits: Limits) {
            self.limits = limits
        }

        /// Consumes `bytes` from `start` until the body ends, fails, or the bytes run out,
        /// appending decoded data to `body`. Returns the index after the last byte consumed.
        mutating func decode(_ bytes: UnsafeRawBufferPointer, from start: Int, into body: inout [UInt8]) -> (next: Int, outcome: Outcome) {
            var index = start
            let count = bytes.count
            while index < count {
                switch state {
                case .finished(let outcome):
                    return (index, outcome)
                case .sizeLine, .trailerLine:
                    index = consumeLine(bytes, from: index)
                case .data(let remaining):
                    let take = min(remaining, count - index)
                    body.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
                    index += take
                    state = take == remaining ? .dataEnd(sawCR: false) : .data(remaining: remaining - take)
                case .dataEnd(let sawCR):
                    let byte = bytes[index]
                    index += 1
                    if !sawCR && byte == 13 {
                        state = .dataEnd(sawCR: true)
                    } else if byte == 10 {
                        state = .sizeLine
                    } else {
                        state = .finished(.failed(.malformed("chunk data not followed by CRLF")))
                    }
                }
            }
            if case .finished(let outcome) = state { return (index, outcome) }
            return (index, .needMore)
        }

        /// Appends bytes up to the next LF to `line` (checking the line's limit), then handles the line.
        private mutating func consumeLine(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
            var end = start
            let count = bytes.count
            while end < count && bytes[end] != 10 { end += 1 }
            let isSizeLine = if case .sizeLine = state { true } else { false }
            let limit = isSizeLine ? Self.maxSizeLineBytes : limits.maxTrailerBytes - trailerBytes
            if line.count + (end - start) > limit {
                state = .finished(.failed(isSizeLine ? .malformed("chunk size line too long") : .headersTooLarge("header fields too large")))
                return count
            }
            if end > start { line.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end])) }
            guard end < count else { return count }
            if line.last == 13 { line.removeLast() }
            if isSizeLine { sizeLine() } else { trailerLine() }
            line.removeAll(keepingCapacity: line.capacity <= 1024)
            return end + 1
        }

        private mutating func sizeLine() {
            switch size(ofSizeLine: line) {
            case .success(0):
                state = .trailerLine
            case .success(let size):
                guard decodedBytes + size <= limits.maxBodyBytes else { return state = .finished(.failed(.bodyTooLarge)) }
                decodedBytes += size
                state = .data(remaining: size)
            case .failure(.sizeTooLarge): state = .finished(.failed(.malformed("chunk size too large")))
            case .failure(.invalidSize): state = .finished(.failed(.malformed("invalid chunk size")))
            case .failure(.invalidExtension): state = .finished(.failed(.malformed("invalid chunk extension")))
            }
        }

        private mutating func trailerLine() {
            trailerBytes += line.count + 2
            if trailerBytes > limits.maxTrailerBytes { return state = .finished(.failed(.headersTooLarge("header fields too large"))) }
            if line.isEmpty { return state = .finished(.done) }
            trailerFields += 1
            if case .failure(let error) = HTTPSyntax.field(in: line) { return state = .finished(.failed(error)) }
            if trailerFields > limits.maxTrailerFields { state = .finished(.failed(.headersTooLarge("too many header fields"))) }
        }
    }
}
