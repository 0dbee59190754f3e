// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A name used in URLs whose connections go to another address, as curl's `--connect-to`:
/// requests keep the name (in `Host` and in the pool's origin), only the socket goes to
/// `host`:`port`. For a server in the same process on an ephemeral port, addressed by a
/// fixed name so that nothing it writes names the port.
public struct ConnectTarget: Sendable, Hashable {
    /// The name and port as written in URLs (`api.demo.invalid`, 80).
    public let name: String
    /// The port written in URLs for `name`.
    public let namePort: Int
    /// Where the connection goes instead (`127.0.0.1`, 41234).
    public let host: String
    /// The port the connection goes to instead.
    public let port: Int

    /// Connections for `name`:`namePort` go to `host`:`port` (the `Host` field still says `name`).
    public init(name: String, namePort: Int = 80, host: String, port: Int) {
        self.name = name
        self.namePort = namePort
        self.host = host
        self.port = port
    }
}

extension [ConnectTarget] {
    /// The address to connect to for `host`:`port`: the target's when one names it, else its own.
    /// Looked up only when a connection is opened, never per request.
    func address(host: String, port: Int) -> (host: String, port: Int) {
        guard let target = first(where: { $0.namePort == port && $0.name == host }) else { return (host, port) }
        return (target.host, target.port)
    }
}
