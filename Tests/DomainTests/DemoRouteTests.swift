import XCTest
@testable import Domain

final class DemoRouteTests: XCTestCase {
    func route(_ path: String) -> DemoRoute { DemoRoute(path: path[...]) }

    func testEachResourceHasItsRoute() {
        XCTAssertEqual(route("/rate_limit"), .rateLimit)
        XCTAssertEqual(route("/users"), .users)
        XCTAssertEqual(route("/users/ada1"), .user(login: "ada1"))
        XCTAssertEqual(route("/users/ada1/repos"), .repos(login: "ada1"))
        XCTAssertEqual(route("/u/3"), .avatar(id: 3))
        XCTAssertEqual(route("/grace2.png"), .avatarRedirect(login: "grace2"))
    }

    func testEmptySegmentsAreSkippedAsASplitOnSlashSkipsThem() {
        XCTAssertEqual(route("//users/"), .users)
        XCTAssertEqual(route("/users//ada1///repos/"), .repos(login: "ada1"))
        XCTAssertEqual(route("u/3"), .avatar(id: 3))
    }

    func testAnAvatarIdThatIsNoNumberIsNil() {
        XCTAssertEqual(route("/u/abc"), .avatar(id: nil))
        XCTAssertEqual(route("/u/+3"), .avatar(id: 3), "as Int(\"+3\") reads it")
    }

    func testOtherPathsAreNotFound() {
        for path in ["", "/", "/nothing", "/USERS", "/u", "/u/3/x", "/users/ada1/stars", "/users/ada1/repos/x", "/.pn", "/rate_limit/x"] {
            XCTAssertEqual(route(path), .notFound, path)
        }
    }

    func testAPngNameIsTheLoginBeforeItsSuffix() {
        XCTAssertEqual(route("/.png"), .avatarRedirect(login: ""))
        XCTAssertEqual(route("/a.png.png"), .avatarRedirect(login: "a.png"))
    }

    func testOutsideASCIIASlashFollowedByACombiningMarkIsNoSeparator() {
        XCTAssertEqual(route("/users/\u{301}ada1"), .notFound, "one segment, `users/́ada1`")
        XCTAssertEqual(route("/users/adé1"), .user(login: "adé1"))
        XCTAssertEqual(route("/é.png"), .avatarRedirect(login: "é"))
    }
}
