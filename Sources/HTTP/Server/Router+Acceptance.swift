// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

extension Router {
    /// Whether a `method` request for `path` reaches a handler rather than the router's own
    /// 404 or 405: a client waiting for `100 Continue` is invited to send its body only then.
    func accepts(method: HTTPMethod, path: String) -> Bool {
        if case .matched = resolve(method: method, path: path) { return true }
        return false
    }
}
