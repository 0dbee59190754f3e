import XCTest
@testable import Domain

final class IdenticonCacheTests: XCTestCase {
    func testCachedImageIsTheIdenticonOfTheLogin() {
        let cache = IdenticonCache()
        XCTAssertEqual(cache.png(for: "ada1"), Identicon(login: "ada1").png())
        XCTAssertEqual(cache.png(for: "ada1"), Identicon(login: "ada1").png())
    }

    func testStartingOverWhenFullStillAnswersCorrectly() {
        let cache = IdenticonCache(capacity: 2)
        for login in ["ada1", "grace2", "alan3", "ada1"] {
            XCTAssertEqual(cache.png(for: login), Identicon(login: login).png(), login)
        }
    }
}
