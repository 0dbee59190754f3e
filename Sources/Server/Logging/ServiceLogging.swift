// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Logging

/// Process-wide logging setup: every `Logger` prints through `StdoutLogHandler`.
enum ServiceLogging {
    /// Bootstraps swift-log (once per process) and returns the service's logger.
    static func bootstrap(level: Logger.Level, format: ServiceConfiguration.LogFormat) -> Logger {
        LoggingSystem.bootstrap { label in StdoutLogHandler(label: label, level: level, format: format) }
        return Logger(label: "stream-service")
    }
}
