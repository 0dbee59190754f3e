import Domain
import HTTP
import Streams

/// The user API (README.md, `App/openapi.yaml`): `/users`, `/users/stream`, `/users/{login}`,
/// `/users/{login}/avatar`. Their pipelines publish to `hub`, which `/events` serves.
public struct UserRoutes: Sendable {
    public let client: GitHubClient
    public let hub: PipelineEventHub
    public let responder: EventStreamResponder

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
        router.get("/users") { list.handle($0) }
        router.get("/users/stream") { stream.handle($0) }
        router.get("/users/{login}") { profile.handle($0) }
        router.get("/users/{login}/avatar") { avatar.handle($0) }
    }
}
