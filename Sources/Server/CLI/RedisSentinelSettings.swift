// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Redis

/// `--redis-sentinels` and `--redis-master-name`: the sentinels to ask and the master they monitor.
public struct RedisSentinelSettings: Sendable, Equatable {
    public var list: RedisSentinelList
    public var masterName: String

    public init(list: RedisSentinelList, masterName: String) {
        self.list = list
        self.masterName = masterName
    }

    /// The process's one watcher of the primary, shared by all its Redis connections.
    func makeSentinel(trustedCAFile: String? = nil) -> RedisSentinel {
        RedisSentinel(masterName: masterName, sentinels: list.sentinels, usesTLS: list.url.usesTLS, trustedCAFile: trustedCAFile)
    }

    /// e.g. `primary of mymaster via s1:26379,s2:26379 (database 2, TLS)`, the password never shown.
    var description: String {
        var details: [String] = []
        if list.url.database != 0 { details.append("database \(list.url.database)") }
        if list.url.usesTLS { details.append("TLS") }
        if list.url.password != nil { details.append("with a password") }
        return "primary of \(masterName) via \(list.sentinels.map(\.description).joined(separator: ","))" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }
}
