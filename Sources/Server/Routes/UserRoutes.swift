import Domain
import HTTP
import Streams

/// The user API of DESIGN.md: `/users`, `/users/stream`, `/users/{login}`,
/// `/users/{login}/avatar`. Their pipelines publish to `hub`, which `/events` serves.
public struct UserRoutes: Sendable {
    public let client: GitHubClient
    public let hub: PipelineEventHub
    public let responder: EventStreamResponder
    /// Tokens and client identity (`--auth-*`, `--trusted-proxies`); nil = open to anyone.
    var access: AccessControl?

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
        router.get("/users", guarded { request, _ in list.handle(request) })
        router.get("/users/stream", guarded { request, _ in stream.handle(request) })
        router.get("/users/{login}", guarded { request, _ in profile.handle(request) })
        router.get("/users/{login}/avatar", guarded { request, _ in avatar.handle(request) })
    }

    /// `handler` behind the access control when there is any to do; the plain handler otherwise.
    private func guarded(_ handler: @escaping @Sendable (Request, Caller) -> DataStream<Response>) -> RequestHandler {
        guard let access, !access.isInert else {
            return { handler($0, Caller(address: $0.remoteAddress, claims: nil)) }
        }
        return { access.guarded($0, .users, handler) }
    }
}
