// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation
import XCTest
@testable import HTTP

final class HTTPClientRequestTests: XCTestCase {
    func request(_ url: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPClientRequest {
        HTTPClientRequest(url: url, headers: headers)!
    }

    func testTheTargetIsThePathAndQueryAsWritten() {
        XCTAssertEqual(request("http://127.0.0.1:8081/u/1?v=4").target, "/u/1?v=4")
        XCTAssertEqual(request("http://h/a%20b/c?q=a%2Fb&r").target, "/a%20b/c?q=a%2Fb&r")
        XCTAssertEqual(request("http://h/users/ada1/repos?per_page=100&page=2").target, "/users/ada1/repos?per_page=100&page=2")
    }

    func testABodyIsFramedByItsContentLengthAndAnEmptyPostSaysZero() {
        var post = HTTPClientRequest(method: .post, url: URL(string: "http://h/v1/traces")!, headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
        XCTAssertTrue(String(decoding: post.encodedHead, as: UTF8.self).hasSuffix("Content-Length: 2\r\n\r\n"))
        post.body = []
        XCTAssertTrue(String(decoding: post.encodedHead, as: UTF8.self).hasSuffix("Content-Length: 0\r\n\r\n"))
        XCTAssertFalse(String(decoding: request("http://h/users").encodedHead, as: UTF8.self).contains("Content-Length"))
    }

    func testALentBodyIsReadAsItsPiecesJoinedAndFramedByTheirLength() {
        var post = HTTPClientRequest(method: .post, url: URL(string: "http://h/v1/traces")!, body: [9], lentBody: LentPieces([[1, 2], [], [3]]))
        XCTAssertEqual(post.body, [1, 2, 3])
        XCTAssertEqual(post.bodyCount, 3)
        XCTAssertTrue(String(decoding: post.encodedHead, as: UTF8.self).hasSuffix("Content-Length: 3\r\n\r\n"))
        XCTAssertEqual(post, HTTPClientRequest(method: .post, url: URL(string: "http://h/v1/traces")!, body: [1, 2, 3]))
        post.body = [4]
        XCTAssertNil(post.lentBody)
        XCTAssertEqual(post.bodyCount, 1)
    }

    func testAnEmptyPathIsSentAsASlash() {
        XCTAssertEqual(request("http://h").target, "/")
        XCTAssertEqual(request("http://h?x=1").target, "/?x=1")
    }

    func testAFragmentAndAnEmptyQueryAreNotSent() {
        XCTAssertEqual(request("http://h/p#top").target, "/p")
        XCTAssertEqual(request("http://h/p?").target, "/p")
    }

    func testARelativeLocationResolvedAgainstItsBaseGivesTheResolvedTarget() {
        let url = URL(string: "../x?y=1", relativeTo: URL(string: "http://h/a/b/c"))!.absoluteURL
        XCTAssertEqual(HTTPClientRequest(url: url).target, "/a/x?y=1")
    }

    func testTheHostFieldNamesThePortOnlyWhenItIsNotTheSchemesDefault() {
        XCTAssertEqual(request("http://h:80/").hostHeader, "h")
        XCTAssertEqual(request("https://h:443/").hostHeader, "h")
        XCTAssertEqual(request("http://h:8080/").hostHeader, "h:8080")
        XCTAssertEqual(request("https://h:80/").hostHeader, "h:80")
    }

    func testTheSchemeDecidesTheDefaultPortInAnyCase() {
        XCTAssertTrue(request("HTTPS://h/").isSecure)
        XCTAssertEqual(request("HTTPS://h/").port, 443)
        XCTAssertFalse(request("http://h/").isSecure)
        XCTAssertEqual(request("http://h/").port, 80)
    }

    func testTheHeadCarriesHostTheCallersFieldsAndKeepAlive() {
        let head = request("http://127.0.0.1:8081/u/1?v=4", headers: ["Accept": "image/png", "host": "ignored"]).encodedHead
        XCTAssertEqual(String(decoding: head, as: UTF8.self), "GET /u/1?v=4 HTTP/1.1\r\nHost: 127.0.0.1:8081\r\nAccept: image/png\r\nConnection: keep-alive\r\n\r\n")
    }

    func testACallersConnectionFieldReplacesKeepAlive() {
        let head = request("http://h/", headers: ["Connection": "close"]).encodedHead
        XCTAssertEqual(String(decoding: head, as: UTF8.self), "GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
    }

    func testExtraFieldsFollowTheCachedOnesBeforeTheBlankLine() {
        var sent = request("http://h/a", headers: ["Accept": "image/png"])
        sent.extraHeaders = ["If-None-Match": "\"v1\""]
        let cache = RequestFieldsCache<[UInt8]>()
        let fields = cache.fields(for: sent, origin: ConnectionPool.Origin(secure: false, host: "h", port: 80))
        XCTAssertEqual(String(decoding: sent.encodedHead(fields: fields), as: UTF8.self),
                       "GET /a HTTP/1.1\r\nHost: h\r\nAccept: image/png\r\nConnection: keep-alive\r\nIf-None-Match: \"v1\"\r\n\r\n")
        XCTAssertEqual(sent.encodedHead(fields: fields), sent.encodedHead)
    }

    func testTheExactSizeHeadIsTheAppendedHeadWithAndWithoutExtraFieldsAndBodies() {
        var cases: [HTTPClientRequest] = []
        for url in ["http://h/a", "http://127.0.0.1:8081/u/1?v=4", "https://h:8443/p?q=a%2Fb&r"] {
            for extra: HTTPHeaders in [[:], ["traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00"],
                                       ["If-None-Match": "\"v1\"", "tracestate": "a=1,b=2", "X-Empty": ""]] {
                for (method, body) in [(HTTPMethod.get, [UInt8]()), (.post, []), (.put, Array("{}".utf8))] {
                    cases.append(HTTPClientRequest(method: method, url: URL(string: url)!, headers: ["Accept": "image/png"], extraHeaders: extra, body: body))
                }
            }
        }
        for request in cases {
            let fields = request.encodedFields
            let framesBody = !request.body.isEmpty || request.method != .get
            let appended = HTTPClientRequest.appendedHead(
                method: request.method.rawValue, target: request.targetParts, fields: fields, extra: request.extraHeaders,
                length: framesBody ? String(request.body.count) : nil)
            XCTAssertEqual(String(decoding: request.encodedHead(fields: fields), as: UTF8.self), String(decoding: appended, as: UTF8.self))
        }
    }

    func testTheHeadLentWithoutAnArrayIsTheEncodedHeadByteForByte() {
        var withExtra = request("http://h/a", headers: ["Accept": "image/png"])
        withExtra.extraHeaders = ["If-None-Match": "\"v1\""]
        var head = HTTPClientRequest(method: .head, url: URL(string: "http://127.0.0.1:8081/u/1?v=4")!)
        head.timeout = .seconds(3)
        let requests = [
            request("http://127.0.0.1:8081/u/1?v=4", headers: ["Accept": "image/png", "User-Agent": "t"]),
            request("http://h"), request("http://h?q"), request("http://h/?"), request("https://H:443/p#frag"),
            request("http://user:pw@h/p"), request("http://[::1]:8080/p?x=1"), withExtra, head,
            HTTPClientRequest(method: .post, url: URL(string: "http://h/v1")!),
            HTTPClientRequest(method: .put, url: URL(string: "http://h/v1")!, body: [1, 2]),
            HTTPClientRequest(method: HTTPMethod("PROPFIND"), url: URL(string: "http://h/dav")!),
        ]
        let cache = RequestFieldsCache<[UInt8]>()
        for sent in requests {
            let fields = cache.fields(for: sent, origin: ConnectionPool.Origin(secure: sent.isSecure, host: sent.host, port: sent.port))
            let lent = sent.withEncodedHead(fields: fields) { Array($0) }
            XCTAssertEqual(String(decoding: lent, as: UTF8.self), String(decoding: sent.encodedHead(fields: fields), as: UTF8.self), "\(sent.url)")
        }
    }

    func testATraceParentWrittenFromItsIdsIsTheHeadOfItsFieldAsAString() {
        let ids = [
            TraceParentIDs(traceHigh: 0x0af7_6519_16cd_43dd, traceLow: 0x8448_eb21_1c80_319c, spanID: 0xb7ad_6b71_6920_3331, sampled: true),
            TraceParentIDs(traceHigh: 0, traceLow: 1, spanID: 0xff, sampled: false),
        ]
        let cache = RequestFieldsCache<[UInt8]>()
        for traceParent in ids {
            for url in ["http://h/a", "http://127.0.0.1:8081/u/1?v=4", "http://[::1]:8080/p?x=1", "http://user:pw@h/p"] {
                for extra: HTTPHeaders in [[:], ["If-None-Match": "\"v1\""]] {
                    for (method, body) in [(HTTPMethod.get, [UInt8]()), (.put, Array("{}".utf8))] {
                        let fast = HTTPClientRequest(
                            method: method, url: URL(string: url)!, headers: ["Accept": "image/png"], extraHeaders: extra, traceParent: traceParent, body: body)
                        var slow = HTTPClientRequest(method: method, url: URL(string: url)!, headers: ["Accept": "image/png"], extraHeaders: extra, body: body)
                        slow.extraHeaders.replaceOrAdd(name: "traceparent", value: traceParent.traceparent)
                        let fields = cache.fields(for: fast, origin: ConnectionPool.Origin(secure: false, host: fast.host, port: fast.port))
                        let expected = String(decoding: slow.encodedHead(fields: fields), as: UTF8.self)
                        XCTAssertTrue(expected.contains("\r\ntraceparent: \(traceParent.traceparent)\r\n"))
                        XCTAssertEqual(String(decoding: fast.encodedHead(fields: fields), as: UTF8.self), expected, "\(url)")
                        XCTAssertEqual(String(decoding: fast.withEncodedHead(fields: fields) { Array($0) }, as: UTF8.self), expected, "\(url)")
                        XCTAssertEqual(fast.sentExtraHeaders, slow.extraHeaders)
                        XCTAssertEqual(HTTP2RequestFields.fields(of: fast).map { "\($0.name)=\($0.value)" }, HTTP2RequestFields.fields(of: slow).map { "\($0.name)=\($0.value)" })
                        XCTAssertEqual(
                            Array(HTTP2RequestFields.list(of: fast, shared: HTTP2RequestFields.shared(of: fast))).map { "\($0.name)=\($0.value)" },
                            HTTP2RequestFields.fields(of: slow).map { "\($0.name)=\($0.value)" })
                    }
                }
            }
        }
    }

    /// What the request used to ask Foundation for, and still does when `URLParts` declines.
    private func foundationAnswers(_ url: URL) -> (secure: Bool, host: String, port: Int, target: String) {
        let secure = url.scheme?.lowercased() == "https"
        let path = url.path(percentEncoded: true)
        let query = url.query(percentEncoded: true) ?? ""
        let target = (path.isEmpty ? "/" : path) + (query.isEmpty ? "" : "?" + query)
        return (secure, url.host ?? "127.0.0.1", url.port ?? (secure ? 443 : 80), target)
    }

    func testTheOriginAndTargetReadFromTheURLStringMatchFoundations() throws {
        let urls = [
            "http://127.0.0.1:8081/u/1?v=4", "https://avatars.example.com/u/9?s=40&v=4", "HTTPS://Host.Example:8443/A/b",
            "http://h", "http://h?x=1", "http://h/p#top", "http://h/p?", "http://h:80/", "https://h:443/x",
            "http://h/a%20b/c?q=a%2Fb&r", "http://h:0/", "http://h/p?q=1#f?g",
            // Declined by the one-pass reading, answered by Foundation as before:
            "http://user:pw@h:81/p", "http://[::1]:8080/p", "http://h%41/p", "http://h:/p", "http://h:99999/p", "ftp://h/p",
        ]
        for string in urls {
            let url = try XCTUnwrap(URL(string: string), string)
            let request = HTTPClientRequest(url: url)
            let expected = foundationAnswers(url)
            XCTAssertEqual(request.isSecure, expected.secure, string)
            XCTAssertEqual(request.host, expected.host, string)
            XCTAssertEqual(request.port, expected.port, string)
            XCTAssertEqual(request.target, expected.target, string)
        }
    }

    /// `?` and `#` at every offset of a path.
    func testTheTargetMatchesFoundationsWhereverTheQueryAndFragmentStart() throws {
        let path = "/users/octocat/avatar/0123456789"
        for question in 0...path.count {
            for hash in [nil] + Array(question...path.count) {
                var target = Array(path.utf8)
                if let hash { target.insert(UInt8(ascii: "#"), at: hash) }
                target.insert(UInt8(ascii: "?"), at: question)
                let string = "http://127.0.0.1:8081" + String(decoding: target, as: UTF8.self)
                let url = try XCTUnwrap(URL(string: string), string)
                XCTAssertNotNil(URLParts(url), string)
                XCTAssertEqual(HTTPClientRequest(url: url).target, foundationAnswers(url).target, string)
            }
        }
    }

    /// The target written in place (the fast path `target` takes) against its slices joined.
    func testTheTargetStringWrittenInPlaceIsThePathAndQuerySlicesJoined() throws {
        for string in ["http://127.0.0.1:8081/u/1?v=4", "https://h/users?limit=30&concurrency=16", "http://h", "http://h?x=1",
                       "http://h/p#top", "http://h/p?", "http://h/a%20b/c?q=a%2Fb&r", "http://h/p?q=1#f?g"] {
            let parts = try XCTUnwrap(URLParts(try XCTUnwrap(URL(string: string))), string)
            let (path, query) = parts.target
            XCTAssertEqual(parts.targetString, query.isEmpty ? String(path) : path + "?" + query, string)
            XCTAssertEqual(parts.targetString.utf8.count, parts.targetCount, string)
        }
    }

    /// The target's bytes written on the stack (the HTTP/2 client's `:path`) against `target`, for
    /// URLs read in one pass and for those left to Foundation (its slow twin there).
    func testTheTargetBytesAreTheTargetsUTF8() throws {
        for string in ["http://127.0.0.1:8081/u/1?v=4", "https://h/users?limit=30&concurrency=16", "http://h", "http://h?x=1",
                       "http://h/p#top", "http://h/p?", "http://h/a%20b/c?q=a%2Fb&r", "http://[::1]:8080/a?b=1", "http://user@h/p"] {
            let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: string), string))
            XCTAssertEqual(request.withTargetBytes { Array($0) }, Array(request.target.utf8), string)
        }
    }

    func testPlainHTTPURLsAreReadInOnePassAndOddOnesAreLeftToFoundation() throws {
        XCTAssertNotNil(URLParts(try XCTUnwrap(URL(string: "http://127.0.0.1:8081/u/1?v=4"))))
        XCTAssertNotNil(URLParts(try XCTUnwrap(URL(string: "HTTPS://h"))))
        for string in ["http://user@h/", "http://[::1]/", "http://h%41/", "http://h:/", "mailto:a@b", "http:/h/p"] {
            XCTAssertNil(URLParts(try XCTUnwrap(URL(string: string), string)), string)
        }
    }

    /// A request whose URL only Foundation reads keeps asking Foundation once copied and changed:
    /// its box holds placeholder parts behind a flag, which a copy must not take for the URL's.
    func testAChangedCopyOfARequestFoundationReadsStillAnswersFromItsURL() throws {
        let url = try XCTUnwrap(URL(string: "http://[::1]:8080/p?x=1"))
        XCTAssertNil(URLParts(url))
        let original = HTTPClientRequest(url: url, headers: ["Accept": "x"])
        var copy = original
        copy.method = .post
        let expected = foundationAnswers(url)
        for sent in [original, copy] {
            XCTAssertEqual([sent.host, sent.target], [expected.host, "/p?x=1"])
            XCTAssertEqual(sent.port, 8080)
            XCTAssertFalse(sent.isSecure)
            XCTAssertEqual(sent.withTargetBytes { Array($0) }, Array("/p?x=1".utf8))
        }
        XCTAssertTrue(String(decoding: copy.encodedHead, as: UTF8.self).hasPrefix("POST /p?x=1 HTTP/1.1\r\n"))
    }

    func testChangingTheURLChangesTheOriginAndTarget() {
        var sent = request("http://a:8080/one")
        sent.url = URL(string: "https://b/two?x")!
        XCTAssertEqual([sent.host, sent.target], ["b", "/two?x"])
        XCTAssertEqual(sent.port, 443)
        XCTAssertTrue(sent.isSecure)
    }

    func testAChangedCopyLeavesTheRequestItWasCopiedFromAsItWas() {
        let original = HTTPClientRequest(method: .get, url: URL(string: "http://h/a")!, headers: ["Accept": "x"], body: [1])
        var copy = original
        XCTAssertEqual(copy, original)
        copy.url = URL(string: "https://other:8443/b?c=1")!
        copy.headers.add(name: "X-More", value: "y")
        copy.extraHeaders.add(name: "If-None-Match", value: "\"t\"")
        copy.body = [2]
        copy.method = .post
        XCTAssertNotEqual(copy, original)
        XCTAssertEqual(original.target, "/a")
        XCTAssertEqual(original.host, "h")
        XCTAssertEqual(original.headers, ["Accept": "x"])
        XCTAssertTrue(original.extraHeaders.isEmpty)
        XCTAssertEqual(original.body, [1])
        XCTAssertEqual(original.method, .get)
        XCTAssertEqual(copy.target, "/b?c=1")
        XCTAssertEqual(copy.port, 8443)
        XCTAssertTrue(copy.isSecure)
    }
}
