// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// Query parameters every route with parameters accepts without reading them, so they never
/// get the unknown-parameter 400 (`QueryParameters.refuseUnknown`):
/// - `access_token`: a bearer token in the query (RFC 6750 §2.3), reserved for authentication,
///   so a client that sends one is not refused before that lands;
/// - `_`: the cache buster jQuery's `cache: false` (and clients copying it) appends as
///   `_=<time>`; the answers say themselves how long they may be cached.
enum IgnoredQueryParameters {
    static let names: Set<String> = ["access_token", "_"]
}
