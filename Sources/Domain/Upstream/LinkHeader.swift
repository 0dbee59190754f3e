// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import NetCore

/// Reads RFC 8288 `Link` headers as GitHub sends them for paging:
/// `<https://api.github.com/user/1/repos?page=2>; rel="next", <…?page=3>; rel="last"`.
enum LinkHeader {
    /// The target of the first link whose `rel` includes `relation`, resolved against `base`.
    static func target(_ header: String?, relation: String, base: URL) -> URL? {
        guard let header else { return nil }
        for link in header.split(separator: ",") {
            let parts = link.split(separator: ";").map { $0.trimmingWhitespace() }
            guard let reference = parts.first, reference.hasPrefix("<"), reference.hasSuffix(">") else { continue }
            let relations = parts.dropFirst().compactMap { parameter -> [Substring]? in
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingWhitespace().lowercased() == "rel" else { return nil }
                return pair[1].filter { $0 != "\"" }.split(separator: " ")
            }.joined()
            if relations.contains(where: { $0.lowercased() == relation }) {
                return URL(string: String(reference.dropFirst().dropLast()), relativeTo: base)?.absoluteURL
            }
        }
        return nil
    }
}
