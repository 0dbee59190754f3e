extension Router {
    /// Whether a `method` request for `target` reaches a handler rather than the router's own
    /// 404 or 405: a client waiting for `100 Continue` is invited to send its body only then.
    func accepts(method: HTTPMethod, target: String) -> Bool {
        if case .matched = resolve(method: method, path: Request.split(target: target).path) { return true }
        return false
    }
}
