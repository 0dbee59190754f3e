#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import XCTest
@testable import Domain

/// Avatar URLs parsed once and kept: the same answers as `URL(string:)`, within a bound.
final class URLMemoTests: XCTestCase {
    func testAKeptURLIsTheOneTheStringParsesTo() {
        let memo = URLMemo()
        let string = "http://127.0.0.1:8080/avatars/ada.png?size=40"
        _ = memo.url(string)

        XCTAssertEqual(memo.url(string), URL(string: string))
        XCTAssertEqual(memo.url(string)?.port, 8080)
    }

    func testAStringThatIsNoURLGivesNilEveryTime() {
        let memo = URLMemo()

        XCTAssertNil(memo.url("http://[::1"))
        XCTAssertNil(memo.url("http://[::1"))
    }

    func testPastItsCapacityTheMemoStartsOverAndStillAnswersEachString() {
        let memo = URLMemo(capacity: 2)
        let strings = (0..<5).map { "http://127.0.0.1/avatars/\($0).png" }

        for string in strings { _ = memo.url(string) }

        XCTAssertEqual(strings.map { memo.url($0) }, strings.map { URL(string: $0) })
    }
}
