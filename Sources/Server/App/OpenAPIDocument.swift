// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// The repository's `openapi.yaml` (`Sources/Server/App/openapi.yaml` links to it),
/// embedded at build time by SwiftPM's `embedInCode` resource rule.
enum OpenAPIDocument {
    static var bytes: [UInt8] { PackageResources.openapi_yaml }
}
