// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import NetCore

/// `stream-service`: the API server (`serve`, the default), the standalone demo
/// upstream, and a health check for container HEALTHCHECKs.
@main
struct StreamServiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream-service",
        abstract: "An HTTP microservice whose endpoints are reactive stream pipelines.",
        subcommands: [ServeCommand.self, DemoUpstreamCommand.self, HealthcheckCommand.self, DrainCommand.self],
        defaultSubcommand: ServeCommand.self
    )

    /// OpenSSL set up before anything touches it (SHA-256, TLS), then the command line as usual
    /// (a negative number after an option joined to it: `NegativeOptionValues`).
    static func main() {
        OpenSSLSetup.ensure()
        main(NegativeOptionValues.joined(Array(CommandLine.arguments.dropFirst())))
    }
}
