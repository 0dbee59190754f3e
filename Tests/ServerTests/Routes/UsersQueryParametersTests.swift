import Domain
import HTTP
import XCTest
@testable import Server

/// `/users` and `/users/stream` parameters, read through the shared query-parameter parser.
final class UsersQueryParametersTests: XCTestCase {
    func parse(_ query: String) throws(InvalidQueryParameter) -> UsersQuery {
        try UsersQuery(QueryParameters(QueryItems(parsing: Substring(query))))
    }

    func testDefaultsApplyWhenParametersAreAbsent() throws {
        XCTAssertEqual(try parse(""), UsersQuery())
    }

    func testAllParametersParse() throws {
        XCTAssertEqual(
            try parse("since=5&limit=7&avatars=serial&concurrency=3&onAvatarError=skip&embed=data-uri&profile=true"),
            UsersQuery(since: 5, limit: 7, avatars: .serial, concurrency: 3, onAvatarError: .skip, embed: .dataURI, profile: true))
    }

    func testProfileMustBeTrueOrFalse() {
        XCTAssertEqual(try parse("profile=false").profile, false)
        XCTAssertThrowsError(try parse("profile=yes")) { XCTAssertEqual(($0 as? InvalidQueryParameter)?.name, "profile") }
    }
}
