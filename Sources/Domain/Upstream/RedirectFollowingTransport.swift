#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Streams

/// Follows 301, 302, 303, 307 and 308 answers, as GitHub documents any request may get
/// (a renamed user, an avatar served from elsewhere), up to `limit` hops.
/// `Authorization` is dropped on a hop to another origin (`UpstreamRequest.redirected(to:)`).
///
///     send(a):       --302(b)|
///     send(b):               --200|
///     following:     ----------200|
public struct RedirectFollowingTransport: UpstreamTransport {
    /// Five hops, as curl's `--max-redirs` examples and GitHub's own clients (Octokit) use;
    /// a chain longer than that is a loop in practice.
    public static let defaultLimit = 5
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    let next: any UpstreamTransport
    let limit: Int

    public init(_ next: any UpstreamTransport, limit: Int = RedirectFollowingTransport.defaultLimit) {
        self.next = next
        self.limit = limit
    }

    public func send(_ request: UpstreamRequest) -> DataStream<UpstreamResponse> {
        follow(request, hopsLeft: limit)
    }

    private func follow(_ request: UpstreamRequest, hopsLeft: Int) -> DataStream<UpstreamResponse> {
        next.send(request).redirect { [limit] response -> DataStream<UpstreamResponse> in
            guard Self.redirectStatuses.contains(response.status), let location = response.header("location") else {
                return .just(response)
            }
            guard hopsLeft > 0 else {
                return .just(error: UpstreamError.malformed("more than \(limit) redirects, the last to \(location)"))
            }
            guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
                let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
            else {
                return .just(error: UpstreamError.malformed("redirect to an unusable location \(location)"))
            }
            return follow(request.redirected(to: target), hopsLeft: hopsLeft - 1)
        }
    }
}
