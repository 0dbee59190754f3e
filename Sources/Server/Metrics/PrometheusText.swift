/// Formatting rules of the Prometheus text exposition format (version 0.0.4).
enum PrometheusText {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// `# HELP` and `# TYPE` lines of a family.
    static func header(name: String, help: String, type: String) -> String {
        "# HELP \(name) \(escapeHelp(help))\n# TYPE \(name) \(type)\n"
    }

    /// `{a="x",b="y"}`, or nothing for no labels.
    static func labels(_ names: [String], _ values: [String], extra: (String, String)? = nil) -> String {
        var pairs = zip(names, values).map { "\($0)=\"\(escapeLabelValue($1))\"" }
        if let extra { pairs.append("\(extra.0)=\"\(escapeLabelValue(extra.1))\"") }
        return pairs.isEmpty ? "" : "{" + pairs.joined(separator: ",") + "}"
    }

    /// A sample value: integers without a fraction, infinities as `+Inf`/`-Inf`.
    static func value(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number > 0 ? "+Inf" : "-Inf" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }

    static func escapeLabelValue(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    static func escapeHelp(_ help: String) -> String {
        help.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
    }
}
