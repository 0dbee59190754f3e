import Domain
import Foundation
import XCTest
@testable import Server

/// The routes' JSON writer gives `JSONEncoder`'s bytes (`.sortedKeys`, `.withoutEscapingSlashes`),
/// and leaves what it cannot write the same to `JSONEncoder`.
final class SortedKeysJSONWriterTests: XCTestCase {
    private func foundationBytes(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    private func assertSameBytes(_ value: some Encodable, file: StaticString = #filePath, line: UInt = #line) throws {
        let written = try SortedKeysJSONWriter().encode(value)
        XCTAssertEqual(String(decoding: written, as: UTF8.self), String(decoding: try foundationBytes(value), as: UTF8.self), file: file, line: line)
    }

    private func user(_ login: String, profile: Bool = false, dataURI: Bool = false, placeholder: Bool = false) -> UserWithAvatar {
        let image = AvatarImage(bytes: Array("\(login) png".utf8), contentType: "image/png")
        let avatar = AvatarMetadata(login: login, upstreamUrl: "http://127.0.0.1:1/u/\(login)?v=4", image: image, embedDataURI: dataURI, placeholder: placeholder)
        let entry = UserWithAvatar(id: login.count, login: login, avatar: avatar)
        guard profile else { return entry }
        return entry.with(profile: GitHubUser(login: login, id: 1, avatarUrl: "u", name: "Ada \"A\" L", company: nil, location: "London", bio: "a\nb", publicRepos: 3, followers: nil))
    }

    func testTheUsersListIsWrittenAsJSONEncoderWritesIt() throws {
        try assertSameBytes([user("ada1"), user("grace2", placeholder: true), user("linus3", dataURI: true)])
    }

    func testUsersWithProfilesAreWrittenAsJSONEncoderWritesThem() throws {
        try assertSameBytes([user("ada1", profile: true), user("x", profile: true, placeholder: true)])
    }

    func testEveryEscapeIsWrittenAsJSONEncoderWritesIt() throws {
        let awkward = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined() + "\"\\/é😀\u{7F}\u{2028}"
        try assertSameBytes(["key": awkward, "empty": "", "nested": "a/b"])
        try assertSameBytes([awkward])
    }

    func testKeysOfMixedCaseAndDigitsSortAsJSONEncoderSortsThem() throws {
        try assertSameBytes(["b": 1, "B": 2, "a10": 3, "a9": 4, "A": 5, "_": 6, "aa": 7, "a": 8, "Ab": 9, "aB": 10])
    }

    func testEmptyValuesAndNullsAreWrittenAsJSONEncoderWritesThem() throws {
        try assertSameBytes([[String: Int]()])
        try assertSameBytes([[Int]]())
        try assertSameBytes([Int?.none, 3, -7, Int.min])
        try assertSameBytes([true, false])
    }

    func testFloatingPointAndFoundationValuesAreLeftToJSONEncoder() {
        XCTAssertThrowsError(try SortedKeysJSONWriter().encode([1.5]))
        XCTAssertThrowsError(try SortedKeysJSONWriter().encode(["at": Date(timeIntervalSince1970: 0)]))
        XCTAssertThrowsError(try SortedKeysJSONWriter().encode([URL(string: "http://x/")!]))
    }
}
