// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain
import HTTP
import Streams

/// The user API (README.md, `App/openapi.yaml`): `/users`, `/users/stream`, `/users/{login}`,
/// `/users/{login}/avatar`. Their pipelines publish to `hub`, which `/events` serves.
public struct UserRoutes: Sendable {
    public let client: GitHubClient
    public let hub: PipelineEventHub
    public let responder: EventStreamResponder
    /// Tokens and client identity (`--auth-*`, `--trusted-proxies`); nil = open to anyone.
    var access: AccessControl?
    /// Each client's budget of upstream requests (`--client-upstream-rate`); nil = unlimited.
    var budget: UpstreamBudget?

    public init(client: GitHubClient, hub: PipelineEventHub, responder: EventStreamResponder) {
        self.client = client
        self.hub = hub
        self.responder = responder
    }

    public func register(on router: inout Router) {
        let users = UsersWithAvatarsPipeline(client: client)
        let list = UsersRoute(pipeline: users, hub: hub)
        let stream = UsersStreamRoute(pipeline: users, hub: hub, responder: responder)
        let profile = ProfileRoute(pipeline: ProfilePipeline(client: client), hub: hub)
        let avatar = AvatarRoute(pipeline: AvatarPipeline(client: client), hub: hub)
        router.get("/users", guarded(estimate: UpstreamEstimate.users) { list.handle($0, usage: $1) })
        router.get("/users/stream", guarded(estimate: UpstreamEstimate.users) { stream.handle($0, usage: $1) })
        router.get("/users/{login}", guarded(estimate: UpstreamEstimate.profile) { profile.handle($0, usage: $1) })
        router.get("/users/{login}/avatar", guarded(estimate: UpstreamEstimate.avatar) { avatar.handle($0, usage: $1) })
    }

    /// `handler` behind the access control and the client's upstream budget when there are any
    /// (the budget needs `access`, which tells the clients apart), reserving `estimate` of the
    /// budget before it runs; the plain handler otherwise.
    private func guarded(
        estimate: @escaping @Sendable (Request) -> Int, _ handler: @escaping @Sendable (Request, UpstreamUsage?) -> DataStream<Response>
    ) -> RequestHandler {
        let budgeted: @Sendable (Request, Caller) -> DataStream<Response>
        if let budget {
            budgeted = { request, caller in Self.spending(request, caller: caller, budget: budget, estimate: estimate(request), handler) }
        } else {
            budgeted = { request, _ in handler(request, nil) }
        }
        // Nothing to check (the default): the handler as it is, no caller worked out per request.
        guard let access, access.readsTokens || budget != nil else { return { handler($0, nil) } }
        return { access.guarded($0, .users, budgeted) }
    }

    /// 429 before any upstream work when the caller's budget has no room for `estimate`; else the
    /// handler, its upstream exchanges charged to the reservation, its answer carrying the
    /// `RateLimit` fields: what is left after the request's own charge.
    private static func spending(
        _ request: Request, caller: Caller, budget: UpstreamBudget, estimate: Int,
        _ handler: @escaping @Sendable (Request, UpstreamUsage?) -> DataStream<Response>
    ) -> DataStream<Response> {
        budget.reserve(caller.budgetKey(budget.addresses), estimate: estimate) { admission in
            guard let reservation = admission.reservation else {
                return .just(admission.decision.refusal(budget.policy, what: "Upstream spending", instance: request.path))
            }
            let usage = UpstreamUsage { _ in reservation.spend() }
            return handler(request, usage).map { response in
                var response = response
                // A whole body means the work is done: settled now, the fields count what it
                // really cost. A stream's work goes on; its fields count the estimate, and it
                // settles when the stream (and with it the usage) is gone.
                let decision: RateDecision
                if case .bytes = response.body { decision = reservation.settle() } else { decision = admission.decision }
                decision.add(to: &response.headers, policy: budget.policy)
                return response
            }
        }
    }
}
