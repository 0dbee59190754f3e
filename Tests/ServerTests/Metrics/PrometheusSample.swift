// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

@testable import Server

/// Reads one sample out of a Prometheus text page: how the tests check a value
/// without caring whether the backend writes it as `1` or `1.0`.
enum PrometheusSample {
    /// The value of the line `series value` (`series` with its labels, if any); nil when absent.
    static func value(of series: String, in page: String) -> Double? {
        let prefix = series + " "
        guard let line = page.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return nil }
        return Double(line.dropFirst(prefix.count))
    }
}

extension ServiceMetrics {
    /// One sample of this registry's page, scraped now.
    func sample(_ series: String) -> Double? {
        PrometheusSample.value(of: series, in: String(decoding: scrape(), as: UTF8.self))
    }
}
