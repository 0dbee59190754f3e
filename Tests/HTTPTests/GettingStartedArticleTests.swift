// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest

/// The DocC catalogue's getting-started article (`Sources/HTTP/HTTP.docc/GettingStarted.md`) shows
/// code that compiles: every line of its Swift blocks is a line of `Examples/hello-service` (which
/// `scripts/examples` builds and tests against this checkout) or of `ReadmeExampleTests`. The one
/// block left out is the adopter's manifest (its first line `// Package.swift`): the example
/// depends on this checkout by path, an adopter by URL.
final class GettingStartedArticleTests: XCTestCase {
    private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func lines(of text: String) -> [String] {
        text.split(separator: "\n").map { line in
            String(line.replacing(/\s+\/\/.*$/, with: "")).trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
    }

    private func swiftFiles(under folder: URL) throws -> [URL] {
        let walker = try XCTUnwrap(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && !$0.path.contains("/.build/") }
    }

    func testEveryLineOfTheArticlesSwiftBlocksIsALineTheExamplesCompile() throws {
        let article = try String(
            contentsOf: repository.appendingPathComponent("Sources/HTTP/HTTP.docc/GettingStarted.md"), encoding: .utf8)
        let sources = try swiftFiles(under: repository.appendingPathComponent("Examples/hello-service"))
            + [repository.appendingPathComponent("Tests/HTTPTests/ReadmeExampleTests.swift")]
        let compiled = Set(try sources.flatMap { lines(of: try String(contentsOf: $0, encoding: .utf8)) })
        let blocks = article.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
            .filter { !$0.hasPrefix("// Package.swift") }
        XCTAssertGreaterThanOrEqual(blocks.count, 6, "the article lost its Swift blocks")
        for line in blocks.flatMap(lines(of:)) {
            XCTAssertTrue(compiled.contains(line), "GettingStarted.md shows a line no example compiles: \(line)")
        }
    }
}
