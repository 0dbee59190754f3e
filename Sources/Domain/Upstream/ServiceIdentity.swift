// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// How the service names itself to upstreams. GitHub rejects API requests without a
/// `User-Agent` and asks that it name the application.
public enum ServiceIdentity {
    public static let name = "StreamService"
    public static let version = "1.1.0"
    public static let userAgent = "\(name)/\(version)"
}
