// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import DemoUpstream
import Domain
import Foundation
import XCTest
@testable import Server

/// The demo upstream's bodies, fetched over its sockets, against the extract of GitHub's
/// published schemas: every required field, no field GitHub's answers lack, right types.
final class DemoSchemaConformanceTests: XCTestCase {
    var demo: DemoUpstreamServer!
    let transport = HTTPUpstreamTransport()
    var schemas: SchemaExtract!

    override func setUpWithError() throws {
        schemas = try SchemaExtract()
        demo = DemoUpstreamServer(configuration: .init(users: 30))
        try demo.start()
    }

    override func tearDown() {
        demo.stop()
    }

    func json(_ path: String) throws -> Any {
        let url = URL(string: path, relativeTo: demo.baseURL)!.absoluteURL
        let response = try answer(to: UpstreamRequest(url: url), via: transport)
        XCTAssertEqual(response.status, 200)
        return try JSONSerialization.jsonObject(with: Data(response.body))
    }

    func testTheExtractHoldsGitHubsRequiredFieldCounts() throws {
        XCTAssertEqual((schemas.schemas["simple-user"]?["required"] as? [String])?.count, 18)
        XCTAssertEqual((schemas.schemas["public-user"]?["required"] as? [String])?.count, 31)
        XCTAssertEqual((schemas.schemas["minimal-repository"]?["required"] as? [String])?.count, 46)
    }

    func testTheValidatorCatchesAMissingAndAnExtraField() {
        let item: [String: Any] = ["login": "x", "id": 1, "name": "X"]
        let problems = schemas.violations(of: item, against: "simple-user")
        XCTAssertTrue(problems.contains("simple-user: missing required avatar_url"), "\(problems)")
        XCTAssertFalse(problems.contains { $0.contains("name is not") }, "name is a simple-user property")
        XCTAssertTrue(schemas.violations(of: ["login": "x", "bogus": 1], against: "simple-user").contains("simple-user: bogus is not in the schema"))
    }

    func testTheValidatorTellsBooleansIntegersAndNullsApart() throws {
        let parsed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(#"{"id":true,"site_admin":1,"login":null,"gravatar_id":null}"#.utf8)))
        let problems = schemas.violations(of: parsed, against: "simple-user")
        XCTAssertTrue(problems.contains("simple-user.id: not an integer"), "\(problems)")
        XCTAssertTrue(problems.contains("simple-user.site_admin: not a boolean"), "\(problems)")
        XCTAssertTrue(problems.contains("simple-user.login: null where the schema allows none"), "\(problems)")
        XCTAssertFalse(problems.contains { $0.hasPrefix("simple-user.gravatar_id") }, "gravatar_id is nullable")
    }

    func testUsersListItemsAreSimpleUsers() throws {
        let page = try XCTUnwrap(try json("/users?since=0&per_page=30") as? [Any])
        XCTAssertEqual(page.count, 30)
        for (index, item) in page.enumerated() {
            XCTAssertEqual(schemas.violations(of: item, against: "simple-user"), [], "item \(index)")
            XCTAssertNil((item as? [String: Any])?["name"], "GitHub's list items carry no name")
        }
    }

    func testUserDetailIsAPublicUser() throws {
        for login in ["ada1", "alan3", "ken10"] {
            XCTAssertEqual(schemas.violations(of: try json("/users/\(login)"), against: "public-user"), [], login)
        }
    }

    func testReposAreMinimalRepositories() throws {
        for path in ["/users/barbara25/repos?per_page=100&page=2", "/users/grace2/repos"] {
            let repos = try XCTUnwrap(try json(path) as? [Any])
            XCTAssertFalse(repos.isEmpty, path)
            for (index, repo) in repos.enumerated() {
                XCTAssertEqual(schemas.violations(of: repo, against: "minimal-repository"), [], "\(path) #\(index)")
            }
        }
    }
}
