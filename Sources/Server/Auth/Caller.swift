/// Who sent a request, as the routes that care see it: the client's address (through trusted
/// proxies) and, when it presented a valid token, its claims.
struct Caller: Sendable {
    let address: String
    let claims: JWTClaims?

    /// What per-client budgets are kept under: the token's subject when there is one (the same
    /// user from several addresses shares one budget), else the client address.
    var budgetKey: String {
        if let subject = claims?.subject, !subject.isEmpty { return "sub:\(subject)" }
        return "addr:\(address)"
    }
}
