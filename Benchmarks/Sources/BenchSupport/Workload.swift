// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// One measured job. `prepare` builds its inputs (only in the process that runs it, so each process's
/// peak RSS is its own workload's) and returns the body, which runs the whole workload once and returns
/// a checksum compared with `expected`, so an optimiser (or a broken operator) cannot skip the work.
public struct Workload: Sendable {
    /// Stable key the table joins on, e.g. `a.from`, `d.100000`, `chain.10000`.
    public let id: String
    /// Library label printed in the table; defaults to the executable's library.
    public let library: String?
    /// What ns/element divides by: elements, deliveries or pairs.
    public let elements: Int
    public let expected: Int
    public let prepare: @Sendable () -> @Sendable () -> Int

    public init(
        _ id: String, library: String? = nil, elements: Int, expected: Int,
        prepare: @escaping @Sendable () -> @Sendable () -> Int
    ) {
        self.id = id
        self.library = library
        self.elements = elements
        self.expected = expected
        self.prepare = prepare
    }
}

/// Reference answers, computed the obvious way, for the workloads' checksums.
public enum Expected {
    public static func mapFilterReduce(_ count: Int) -> Int {
        (0..<count).lazy.map { $0 * 2 }.filter { $0 % 3 == 0 }.reduce(0, +)
    }

    public static func sum(_ count: Int) -> Int {
        count * (count - 1) / 2
    }
}
