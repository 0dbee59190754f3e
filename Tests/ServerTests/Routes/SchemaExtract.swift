// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation

/// The extract of GitHub's published schemas in `Resources/github-rest-schemas.json`, and
/// the few rules of JSON Schema it needs: `type`, `nullable`, `required`, `properties` (a
/// field not listed is a violation: "nothing GitHub's answers lack"), `items`, `$ref`.
struct SchemaExtract {
    let schemas: [String: [String: Any]]

    init() throws {
        let url = try XCTUnwrapURL(Bundle.module.url(forResource: "github-rest-schemas", withExtension: "json", subdirectory: "Resources"))
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        schemas = document?["schemas"] as? [String: [String: Any]] ?? [:]
    }

    /// Every way `value` breaks `schemaName`, as "path: problem" lines (empty when valid).
    func violations(of value: Any, against schemaName: String) -> [String] {
        guard let schema = schemas[schemaName] else { return ["no schema named \(schemaName)"] }
        return violations(of: value, schema, at: schemaName)
    }

    private func violations(of value: Any, _ schema: [String: Any], at path: String) -> [String] {
        if let reference = schema["$ref"] as? String {
            guard let target = schemas[reference] else { return ["\(path): unknown $ref \(reference)"] }
            return violations(of: value, target, at: path)
        }
        if value is NSNull {
            return schema["nullable"] as? Bool == true ? [] : ["\(path): null where the schema allows none"]
        }
        switch schema["type"] as? String {
        case "object":
            guard let object = value as? [String: Any] else { return ["\(path): not an object"] }
            guard let properties = schema["properties"] as? [String: [String: Any]] else { return [] }
            let missing = (schema["required"] as? [String] ?? []).filter { object[$0] == nil }.map { "\(path): missing required \($0)" }
            let extra = object.keys.filter { properties[$0] == nil }.sorted().map { "\(path): \($0) is not in the schema" }
            let nested = object.sorted { $0.key < $1.key }.flatMap { key, field in
                properties[key].map { violations(of: field, $0, at: "\(path).\(key)") } ?? []
            }
            return missing + extra + nested
        case "array":
            guard let array = value as? [Any] else { return ["\(path): not an array"] }
            let items = schema["items"] as? [String: Any] ?? [:]
            return array.enumerated().flatMap { violations(of: $1, items, at: "\(path)[\($0)]") }
        case "string":
            return value is String ? [] : ["\(path): not a string"]
        case "integer":
            return (value as? NSNumber).map { ["q", "l", "i", "s"].contains(Self.kind($0)) ? [] : ["\(path): not an integer"] } ?? ["\(path): not an integer"]
        case "boolean":
            return (value as? NSNumber).map { Self.kind($0) == "c" ? [] : ["\(path): not a boolean"] } ?? ["\(path): not a boolean"]
        default:
            return []
        }
    }

    /// The Objective-C type code JSONSerialization gave the number: "c" for a JSON boolean,
    /// "q" (or another integer code) for an integer, "d" for a fraction.
    static func kind(_ number: NSNumber) -> String {
        String(cString: number.objCType)
    }
}

private func XCTUnwrapURL(_ url: URL?) throws -> URL {
    guard let url else { throw CocoaError(.fileNoSuchFile) }
    return url
}
