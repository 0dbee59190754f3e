// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Workload sizes fixed by the issue, shared by every library's executable.
public enum Sizes {
    public static let mapFilterReduce = 1_000_000
    public static let redirect = 10_000
    public static let fanOutWatchers = 1_000
    public static let fanOutEvents = 1_000
    public static let zip = [10_000, 100_000, 1_000_000]
    public static let chain = 10_000
}
