// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import ArgumentParser

/// Prints a startup error as the one line the CLI contract promises (on stderr,
/// so it is not mistaken for a log event) and exits with status 64.
enum CommandLineFailure {
    static let exitCode = ExitCode(64)

    @discardableResult
    static func exitOnError<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ConfigurationError {
            report(error.description)
        } catch {
            report("error: \(error)")
        }
        LineWriter.standardOutput.flush()
        throw exitCode
    }

    private static func report(_ line: String) {
        LineWriter.writeToStandardError(Array((line.split(whereSeparator: \.isNewline).joined(separator: " ") + "\n").utf8))
    }
}
