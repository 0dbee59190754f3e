// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore

/// `Request`'s fields, in the box its copies share until one of them changes a field.
/// The fields skip run-time exclusivity checks: the box is changed only by a request that holds
/// its one reference (`Request.unique()`), so no other access can overlap a change.
// @unchecked: changed only through its one holder (isKnownUniquelyReferenced), as Array's buffer is; shared boxes are only read.
final class RequestStorage: @unchecked Sendable {
    @exclusivity(unchecked) var method: HTTPMethod
    @exclusivity(unchecked) var scheme: String
    @exclusivity(unchecked) var target: String
    @exclusivity(unchecked) var path: String
    /// The target's raw query text, after the `?` (empty without one).
    @exclusivity(unchecked) var queryText: Substring
    /// A query set by assignment, which then replaces `queryText`'s.
    @exclusivity(unchecked) var parsedQuery: QueryItems?
    @exclusivity(unchecked) var version: HTTPVersion
    @exclusivity(unchecked) var headers: HTTPHeaders
    @exclusivity(unchecked) var body: [UInt8]
    @exclusivity(unchecked) var pathParameters: [String: String] = [:]
    @exclusivity(unchecked) var routePattern: String?
    @exclusivity(unchecked) var id: String
    @exclusivity(unchecked) var remoteAddress: String
    @exclusivity(unchecked) var peerAddress: IPAddress?
    @exclusivity(unchecked) var loopScheduler: EventLoopScheduler?
    @exclusivity(unchecked) var trace: TraceIdentity?
    @exclusivity(unchecked) var unrecordedTrace: UnrecordedTrace?

    init(
        method: consuming HTTPMethod, scheme: consuming String, target: consuming String, path: consuming String,
        queryText: consuming Substring, version: HTTPVersion, headers: consuming HTTPHeaders, body: consuming [UInt8],
        id: consuming String, remoteAddress: consuming String, peerAddress: IPAddress?,
        loopScheduler: consuming EventLoopScheduler?
    ) {
        self.method = method
        self.scheme = scheme
        self.target = target
        self.path = path
        self.queryText = queryText
        self.version = version
        self.headers = headers
        self.body = body
        self.id = id
        self.remoteAddress = remoteAddress
        self.peerAddress = peerAddress
        self.loopScheduler = loopScheduler
    }

    /// A box of its own with the same fields, for a request about to change one.
    func copy() -> RequestStorage {
        let copy = RequestStorage(
            method: method, scheme: scheme, target: target, path: path, queryText: queryText, version: version,
            headers: headers, body: body, id: id, remoteAddress: remoteAddress, peerAddress: peerAddress,
            loopScheduler: loopScheduler)
        copy.parsedQuery = parsedQuery
        copy.pathParameters = pathParameters
        copy.routePattern = routePattern
        copy.trace = trace
        copy.unrecordedTrace = unrecordedTrace
        return copy
    }
}
