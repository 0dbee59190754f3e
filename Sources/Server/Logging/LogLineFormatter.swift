import HTTP
import Logging

/// Turns one log event into one line of text or JSON.
///
/// text: `2025-01-31T12:00:00.123Z info http: GET /health 200 bytes=15 status=200`
/// json: `{"time":"2025-01-31T12:00:00.123Z","level":"info","logger":"http","message":"…","bytes":15,…}`
///
/// Metadata keys are sorted so lines are stable; line breaks inside values are
/// escaped, so one event is always exactly one line.
public struct LogLineFormatter: Sendable {
    public let format: ServiceConfiguration.LogFormat

    public init(format: ServiceConfiguration.LogFormat) {
        self.format = format
    }

    public func line(time: String, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> String {
        let keys = metadata.keys.sorted()
        switch format {
        case .text:
            var out = "\(time) \(level.rawValue) \(label): \(Self.oneLine(message))"
            for key in keys {
                out += " \(key)=\(Self.textValue(metadata[key]!))"
            }
            return out
        case .json:
            var out = "{\"time\":\"\(time)\",\"level\":\"\(level.rawValue)\",\"logger\":\(JSONString.quote(label)),\"message\":\(JSONString.quote(message))"
            for key in keys where !Self.reservedKeys.contains(key) {
                out += ",\(JSONString.quote(key)):\(Self.jsonValue(metadata[key]!))"
            }
            return out + "}"
        }
    }

    private static let reservedKeys: Set<String> = ["time", "level", "logger", "message"]

    static func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0.isNewline }) else { return text }
        return text.replacing("\r\n", with: "\\n").replacing("\n", with: "\\n").replacing("\r", with: "\\r")
    }

    private static func textValue(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let text):
            let single = oneLine(text)
            return single.isEmpty || single.contains(" ") || single.contains("\"") ? JSONString.quote(single) : single
        case .stringConvertible(let convertible):
            return textValue(.string(convertible.description))
        case .array, .dictionary:
            return JSONString.quote(oneLine(value.description))
        }
    }

    /// Numbers and booleans (from `stringConvertible`) stay JSON numbers and booleans.
    private static func jsonValue(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let text):
            return JSONString.quote(text)
        case .stringConvertible(let convertible):
            if convertible is any BinaryInteger || convertible is Double || convertible is Bool {
                return convertible.description
            }
            return JSONString.quote(convertible.description)
        case .array(let values):
            return "[" + values.map(jsonValue).joined(separator: ",") + "]"
        case .dictionary(let entries):
            return "{" + entries.keys.sorted().map { "\(JSONString.quote($0)):\(jsonValue(entries[$0]!))" }.joined(separator: ",") + "}"
        }
    }
}
