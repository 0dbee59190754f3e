// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HTTP
import Logging

/// Turns one log event into one line of text or JSON.
///
/// text: `2025-01-31T12:00:00.123Z info http: GET /health 200 bytes=15 status=200`
/// json: `{"time":"2025-01-31T12:00:00.123Z","level":"info","logger":"http","message":"…","bytes":15,…}`
///
/// Metadata keys are sorted so lines are stable; line breaks and other control
/// characters inside values are escaped (`LogText`), so one event is always exactly
/// one line and nothing from a request reaches a terminal as a control sequence.
public struct LogLineFormatter: Sendable {
    public let format: ServiceConfiguration.LogFormat

    public init(format: ServiceConfiguration.LogFormat) {
        self.format = format
    }

    public func line(time: String, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> String {
        let keys = metadata.keys.sorted()
        switch format {
        case .text:
            var out = "\(time) \(level.rawValue) \(label): \(LogText.escaped(message, quoted: false))"
            for key in keys {
                out += " \(key)=\(Self.textValue(metadata[key]!))"
            }
            return out
        case .json:
            var out = "{\"time\":\"\(time)\",\"level\":\"\(level.rawValue)\",\"logger\":\(Self.quoted(label)),\"message\":\(Self.quoted(message))"
            for key in keys where !Self.reservedKeys.contains(key) {
                out += ",\(Self.quoted(key)):\(Self.jsonValue(metadata[key]!))"
            }
            return out + "}"
        }
    }

    private static let reservedKeys: Set<String> = ["time", "level", "logger", "message"]

    /// A JSON string of `text`; valid JSON that decodes to `text`, with no control character raw.
    private static func quoted(_ text: String) -> String {
        LogText.escaped(text, quoted: true)
    }

    private static func textValue(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let text):
            return text.isEmpty || text.contains(" ") || text.contains("\"") ? quoted(text) : LogText.escaped(text, quoted: false)
        case .stringConvertible(let convertible):
            return textValue(.string(convertible.description))
        case .array, .dictionary:
            return quoted(value.description)
        }
    }

    /// Numbers and booleans (from `stringConvertible`) stay JSON numbers and booleans.
    private static func jsonValue(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let text):
            return quoted(text)
        case .stringConvertible(let convertible):
            if convertible is any BinaryInteger || convertible is Double || convertible is Bool {
                return convertible.description
            }
            return quoted(convertible.description)
        case .array(let values):
            return "[" + values.map(jsonValue).joined(separator: ",") + "]"
        case .dictionary(let entries):
            return "{" + entries.keys.sorted().map { "\(quoted($0)):\(jsonValue(entries[$0]!))" }.joined(separator: ",") + "}"
        }
    }
}
