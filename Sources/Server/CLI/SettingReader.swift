// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Domain
import Logging
import NetCore
import Redis
import Telemetry

/// Looks a setting up (flag, then environment) and turns it into a typed value or a `ConfigurationError`.
struct SettingReader {
    let flags: [ConfigurationSetting: String]
    let environment: [String: String]

    /// The raw value and whether it came from the environment.
    func raw(_ setting: ConfigurationSetting) -> (value: String, fromEnvironment: Bool)? {
        if let value = flags[setting] { return (value, false) }
        if let value = environment[setting.environmentVariable], !value.isEmpty { return (value, true) }
        return nil
    }

    func string(_ setting: ConfigurationSetting) -> String? {
        raw(setting)?.value
    }

    func failure(_ setting: ConfigurationSetting, _ found: (value: String, fromEnvironment: Bool), _ reason: String) -> ConfigurationError {
        ConfigurationError(setting, value: found.value, reason: reason, fromEnvironment: found.fromEnvironment)
    }

    func host(_ setting: ConfigurationSetting) throws(ConfigurationError) -> String? {
        guard let found = raw(setting) else { return nil }
        let host = found.value.trimmingWhitespace()
        let isAllowed = { (scalar: Unicode.Scalar) in scalar.isLetterMarkOrNumber || ".-:_[]%".unicodeScalars.contains(scalar) }
        guard !host.isEmpty, host.unicodeScalars.allSatisfy(isAllowed) else {
            throw failure(setting, found, "expected a host name or IP address, e.g. 0.0.0.0 or ::")
        }
        return host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    func integer(_ setting: ConfigurationSetting, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        guard let found = raw(setting) else { return nil }
        guard let value = Int(found.value.trimmingWhitespace()), range.contains(value) else {
            throw failure(setting, found, "expected an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    func fraction(_ setting: ConfigurationSetting) throws(ConfigurationError) -> Double? {
        guard let found = raw(setting) else { return nil }
        guard let value = Double(found.value.trimmingWhitespace()), value >= 0, value <= 1 else {
            throw failure(setting, found, "expected a number from 0.0 to 1.0")
        }
        return value
    }

    func seconds(_ setting: ConfigurationSetting, allowZero: Bool) throws(ConfigurationError) -> Duration? {
        guard let found = raw(setting) else { return nil }
        let limit = 86_400.0
        guard let value = Double(found.value.trimmingWhitespace()), value.isFinite,
            allowZero ? value >= 0 : value > 0, value <= limit
        else {
            let range = allowZero ? "from 0 to \(Int(limit))" : "greater than 0, at most \(Int(limit))"
            throw failure(setting, found, "expected seconds \(range), e.g. 2.5")
        }
        return .milliseconds(Int((value * 1000).rounded()))
    }

    func httpURL(_ setting: ConfigurationSetting) throws(ConfigurationError) -> URL? {
        guard let found = raw(setting) else { return nil }
        guard let url = URL(string: found.value), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw failure(setting, found, "expected an http:// or https:// URL, e.g. https://api.github.com")
        }
        return url
    }

    func redisURL(_ setting: ConfigurationSetting) throws(ConfigurationError) -> RedisURL? {
        guard let found = raw(setting) else { return nil }
        do {
            return try RedisURL(parsing: found.value.trimmingWhitespace())
        } catch {
            // The value is not echoed: it may hold a password.
            throw ConfigurationError(setting, value: nil, reason: "\(error), expected redis://[user:password@]host:port[/db] or rediss://…", fromEnvironment: found.fromEnvironment)
        }
    }

    /// `--redis-sentinels` with `--redis-master-name`, each refused without the other or beside `--redis-url`.
    func redisSentinels(alongside url: RedisURL?) throws(ConfigurationError) -> RedisSentinelSettings? {
        guard let found = raw(.redisSentinels) else {
            if let name = raw(.redisMasterName) {
                throw ConfigurationError(.redisMasterName, value: nil, reason: "needs \(ConfigurationSetting.redisSentinels.flag)", fromEnvironment: name.fromEnvironment)
            }
            return nil
        }
        guard url == nil else {
            throw ConfigurationError(.redisSentinels, value: nil, reason: "cannot be combined with \(ConfigurationSetting.redisUrl.flag): give the primary's credentials, database and TLS in the sentinel list, e.g. rediss://user:password@s1:26379,s2:26379/0", fromEnvironment: found.fromEnvironment)
        }
        let list: RedisSentinelList
        do {
            list = try RedisSentinelList(parsing: found.value.trimmingWhitespace())
        } catch {
            // The value is not echoed: it may hold a password.
            throw ConfigurationError(.redisSentinels, value: nil, reason: "\(error), expected [redis://|rediss://][user:password@]host:port,host:port,…[/db]", fromEnvironment: found.fromEnvironment)
        }
        guard let name = raw(.redisMasterName) else {
            throw ConfigurationError(.redisSentinels, value: nil, reason: "needs \(ConfigurationSetting.redisMasterName.flag), the name the sentinels monitor (e.g. mymaster)", fromEnvironment: found.fromEnvironment)
        }
        let masterName = name.value.trimmingWhitespace()
        guard !masterName.isEmpty, masterName.utf8.count <= 128, masterName.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 }) else {
            throw failure(.redisMasterName, name, "expected 1 to 128 printable ASCII characters without spaces, e.g. mymaster")
        }
        return RedisSentinelSettings(list: list, masterName: masterName)
    }

    func replicaID(_ setting: ConfigurationSetting) throws(ConfigurationError) -> String? {
        guard let found = raw(setting) else { return nil }
        let id = found.value.trimmingWhitespace()
        guard !id.isEmpty, id.utf8.count <= 64, id.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0 != "\"" && $0 != "\\" }) else {
            throw failure(setting, found, "expected 1 to 64 printable ASCII characters without spaces or quotes, e.g. web-1")
        }
        return id
    }

    func choice<Value>(_ setting: ConfigurationSetting, _ options: [(String, Value)]) throws(ConfigurationError) -> Value? {
        guard let found = raw(setting) else { return nil }
        let wanted = found.value.trimmingWhitespace().lowercased()
        guard let match = options.first(where: { $0.0 == wanted }) else {
            throw failure(setting, found, "expected one of \(options.map(\.0).joined(separator: ", "))")
        }
        return match.1
    }

    func corsOrigins(_ setting: ConfigurationSetting) throws(ConfigurationError) -> CORSOrigins? {
        guard let found = raw(setting) else { return nil }
        do {
            return try CORSOrigins.parse(found.value)
        } catch {
            throw failure(setting, found, error.reason)
        }
    }

    /// `--auth-jwt-secret` or `--auth-jwt-public-key` (not both), the key checked now so a bad one
    /// stops the start; the other `--auth-*` flags need one of them.
    func authSettings() throws(ConfigurationError) -> AuthSettings? {
        let secret = raw(.authJwtSecret), publicKey = raw(.authJwtPublicKey)
        let key: AuthSettings.Key
        switch (secret, publicKey) {
        case (let secret?, nil):
            key = .secret(secret.value)
        case (nil, let file?):
            try requireReadableFile(.authJwtPublicKey, file)
            do {
                key = .publicKey(pem: try AuthSettings.readKeyFile(file.value), file: file.value)
            } catch {
                throw failure(.authJwtPublicKey, file, error.description)
            }
        case (_?, let file?):
            throw ConfigurationError(.authJwtPublicKey, value: nil, reason: "give a secret or a public key, not both (\(ConfigurationSetting.authJwtSecret.flag) is set too)", fromEnvironment: file.fromEnvironment)
        case (nil, nil):
            for setting in [ConfigurationSetting.authProtect, .authCookie, .authAudience, .authIssuer] {
                if let found = raw(setting) {
                    throw ConfigurationError(setting, value: nil, reason: "needs \(ConfigurationSetting.authJwtSecret.flag) or \(ConfigurationSetting.authJwtPublicKey.flag)", fromEnvironment: found.fromEnvironment)
                }
            }
            return nil
        }
        // A key alone protects everything: a key that silently protected nothing read as protection.
        var settings = AuthSettings(key: key, protected: Set(ProtectedArea.allCases))
        if let found = raw(.authProtect) {
            guard let areas = ProtectedArea.parse(found.value) else {
                throw failure(.authProtect, found, "expected events, metrics, users (comma-separated), all or none")
            }
            settings.protected = areas
        }
        if let found = raw(.authCookie) {
            let name = found.value.trimmingWhitespace()
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0)) }) else {
                throw failure(.authCookie, found, "expected a cookie name (letters, digits and !#$%&'*+-.^_`|~), e.g. access_token")
            }
            settings.cookie = name
        }
        settings.audience = string(.authAudience)?.trimmingWhitespace()
        settings.issuer = string(.authIssuer)?.trimmingWhitespace()
        do {
            _ = try settings.verifier()
        } catch {
            let setting: ConfigurationSetting = secret == nil ? .authJwtPublicKey : .authJwtSecret
            // A secret is never echoed.
            throw ConfigurationError(setting, value: secret == nil ? publicKey?.value : nil, reason: error.description, fromEnvironment: (secret ?? publicKey)?.fromEnvironment ?? false)
        }
        return settings
    }

    func rate(_ setting: ConfigurationSetting, name: String) throws(ConfigurationError) -> RatePolicy? {
        guard let found = raw(setting) else { return nil }
        guard let policy = RatePolicy.parse(found.value, name: name) else {
            throw failure(setting, found, "expected a count per s, m or h, e.g. 120/m")
        }
        return policy
    }

    func trustedProxies(_ setting: ConfigurationSetting) throws(ConfigurationError) -> TrustedProxies? {
        guard let found = raw(setting) else { return nil }
        switch TrustedProxies.parse(found.value) {
        case .success(let proxies): return proxies
        case .failure(let error): throw failure(setting, found, error.reason)
        }
    }

    func tlsFiles() throws(ConfigurationError) -> ServiceConfiguration.TLSFiles? {
        let certificate = raw(.tlsCert)
        let key = raw(.tlsKey)
        switch (certificate, key) {
        case (nil, nil):
            return nil
        case (let certificate?, nil):
            throw ConfigurationError(.tlsKey, value: nil, reason: "missing: \(ConfigurationSetting.tlsCert.flag) needs a private key too", fromEnvironment: certificate.fromEnvironment)
        case (nil, let key?):
            throw ConfigurationError(.tlsCert, value: nil, reason: "missing: \(ConfigurationSetting.tlsKey.flag) needs a certificate too", fromEnvironment: key.fromEnvironment)
        case (let certificate?, let key?):
            try requireReadableFile(.tlsCert, certificate)
            try requireReadableFile(.tlsKey, key)
            return ServiceConfiguration.TLSFiles(certificate: certificate.value, privateKey: key.value)
        }
    }

    func requireReadableFile(_ setting: ConfigurationSetting, _ found: (value: String, fromEnvironment: Bool)) throws(ConfigurationError) {
        #if canImport(FoundationEssentials)
        var isDirectory = false
        #else
        var isDirectory: ObjCBool = false
        #endif
        let exists = FileManager.default.fileExists(atPath: found.value, isDirectory: &isDirectory)
        guard exists, !Bool(isDirectory), FileManager.default.isReadableFile(atPath: found.value) else {
            throw failure(setting, found, exists ? "not a readable file" : "no such file")
        }
    }

    /// An http(s) URL template with `{traceId}` in it.
    func traceLinkTemplate(_ setting: ConfigurationSetting) throws(ConfigurationError) -> String? {
        guard let found = raw(setting) else { return nil }
        let template = found.value.trimmingWhitespace()
        let lowered = template.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), template.contains("{traceId}"),
            URL(string: template.split(separator: "{traceId}", omittingEmptySubsequences: false).joined(separator: "0")) != nil
        else {
            throw failure(setting, found, "expected an http:// or https:// URL with {traceId} in it, e.g. http://localhost:16686/trace/{traceId}")
        }
        return template
    }

    /// The `--otel-*` flags over the `OTEL_*` variables, read by Telemetry's rules; its error names our flag.
    func tracing() throws(ConfigurationError) -> TracingSettings? {
        do {
            return try TracingSettings.resolve { raw(ConfigurationSetting(telemetry: $0))?.value }
        } catch {
            let setting = ConfigurationSetting(telemetry: error.setting)
            throw ConfigurationError(setting, value: error.value, reason: error.reason, fromEnvironment: raw(setting)?.fromEnvironment ?? false)
        }
    }
}
