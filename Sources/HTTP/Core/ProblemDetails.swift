// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// An RFC 9457 problem document (`application/problem+json`).
public struct ProblemDetails: Sendable, Equatable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    public var instance: String?

    public init(status: HTTPStatus, detail: String, title: String? = nil, type: String = "about:blank", instance: String? = nil) {
        self.type = type
        self.title = title ?? status.reasonPhrase
        self.status = status.code
        self.detail = detail
        self.instance = instance
    }

    public var json: String {
        var out = "{\"type\":\(JSONString.quote(type)),\"title\":\(JSONString.quote(title)),\"status\":\(status),\"detail\":\(JSONString.quote(detail))"
        if let instance { out += ",\"instance\":\(JSONString.quote(instance))" }
        return out + "}"
    }
}

extension Response {
    public static let problemContentType = "application/problem+json"

    /// An RFC 9457 error response; every error the server or a route produces uses this shape.
    public static func problem(
        status: HTTPStatus,
        detail: String,
        title: String? = nil,
        type: String = "about:blank",
        instance: String? = nil,
        headers extraHeaders: HTTPHeaders = HTTPHeaders()
    ) -> Response {
        let problem = ProblemDetails(status: status, detail: detail, title: title, type: type, instance: instance)
        var headers = extraHeaders
        headers.replaceOrAdd(name: "Content-Type", value: problemContentType)
        return Response(status: status, headers: headers, body: .bytes(Array(problem.json.utf8)))
    }
}
