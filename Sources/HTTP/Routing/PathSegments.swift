// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The non-empty `/`-separated segments of a path, as ranges of its bytes, in memory borrowed
/// for the call (stack memory for a usual path: no array of substrings per look-up).
enum PathSegments {
    static func withSegments<Result>(
        of path: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<Range<Int>>) -> Result
    ) -> Result {
        var count = 0
        var index = 0
        // Counted first, so the ranges fit the room they are given.
        while index < path.count {
            while index < path.count && path[index] == UInt8(ascii: "/") { index += 1 }
            if index == path.count { break }
            count += 1
            while index < path.count && path[index] != UInt8(ascii: "/") { index += 1 }
        }
        return withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: max(count, 1)) { room in
            var filled = 0
            var index = 0
            while index < path.count {
                while index < path.count && path[index] == UInt8(ascii: "/") { index += 1 }
                if index == path.count { break }
                let start = index
                while index < path.count && path[index] != UInt8(ascii: "/") { index += 1 }
                room.initializeElement(at: filled, to: start..<index)
                filled += 1
            }
            defer { room.baseAddress!.deinitialize(count: filled) }
            return body(UnsafeBufferPointer(rebasing: room[..<filled]))
        }
    }
}
