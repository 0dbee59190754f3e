// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A JSON value the demo upstream builds its GitHub-shaped bodies from: GitHub's schemas
/// have dozens of fields, most of them URL templates, which read better as a table than as
/// a struct per schema.
enum DemoJSON: Encodable, Sendable, Equatable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([DemoJSON])
    case object([String: DemoJSON])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let values): try container.encode(values)
        case .object(let fields): try container.encode(fields)
        }
    }

    static func optional(_ value: String?) -> DemoJSON { value.map(DemoJSON.string) ?? .null }
}
