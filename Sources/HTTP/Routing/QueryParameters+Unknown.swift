// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency

extension QueryParameters {
    /// Refuses a parameter this route does not read, so a typo (`?limt=5`) is not silently
    /// answered with the defaults. The parameters a route reads are the ones its reader asked
    /// for — no second list to keep in step — so call this after reading them all;
    /// `ignored` names parameters accepted without being read (e.g. a cache buster).
    public func refuseUnknown(ignoring ignored: Set<String> = []) throws(InvalidQueryParameter) {
        let asked = consulted.withLock { $0 }
        for (name, value) in items where !asked.contains(name) && !ignored.contains(name) {
            var known: [String] = []
            for each in asked where !known.contains(each) { known.append(each) }
            let reads = known.isEmpty ? "reads none" : "reads " + known.joined(separator: ", ")
            let hint = EditDistance.closest(to: name, among: known).map { "did you mean '\($0)'? It \(reads)" } ?? "it \(reads)"
            throw InvalidQueryParameter(name: name, value: value, reason: "is not one this route reads", hint: hint)
        }
    }
}
