// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A configuration value that cannot be used; its description is the one line
/// the CLI prints before exiting, naming the flag and where the value came from.
public struct ConfigurationError: Error, Equatable, CustomStringConvertible {
    public let setting: ConfigurationSetting
    /// The offending value, or nil when the problem is not one value (e.g. a missing partner flag).
    public let value: String?
    public let reason: String
    /// True when the value came from the environment variable rather than the flag.
    public let fromEnvironment: Bool

    public init(_ setting: ConfigurationSetting, value: String?, reason: String, fromEnvironment: Bool = false) {
        self.setting = setting
        self.value = value
        self.reason = reason
        self.fromEnvironment = fromEnvironment
    }

    public var description: String {
        let source = fromEnvironment ? " (from \(setting.environmentVariable))" : ""
        guard let value else { return "error: \(setting.flag)\(source): \(reason)" }
        return "error: invalid value \"\(value)\" for \(setting.flag)\(source): \(reason)"
    }
}
