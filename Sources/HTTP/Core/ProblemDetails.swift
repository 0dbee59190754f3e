// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// An RFC 9457 problem document (`application/problem+json`).
public struct ProblemDetails: Sendable, Equatable {
    /// A URI naming the kind of problem; `about:blank` when the status says it all.
    public var type: String
    /// A short summary of the kind of problem; the status's reason phrase by default.
    public var title: String
    /// The response's status code.
    public var status: Int
    /// What went wrong with this request, in words the client can act on.
    public var detail: String
    /// The request's path (the server sets it for errors a handler's stream fails with).
    public var instance: String?

    /// A problem document for `status` saying `detail`.
    public init(status: HTTPStatus, detail: String, title: String? = nil, type: String = "about:blank", instance: String? = nil) {
        self.type = type
        self.title = title ?? status.reasonPhrase
        self.status = status.code
        self.detail = detail
        self.instance = instance
    }

    /// The document as JSON: `type`, `title`, `status`, `detail`, then `instance` if there is one.
    public var json: String {
        var out = "{\"type\":\(JSONString.quote(type)),\"title\":\(JSONString.quote(title)),\"status\":\(status),\"detail\":\(JSONString.quote(detail))"
        if let instance { out += ",\"instance\":\(JSONString.quote(instance))" }
        return out + "}"
    }
}

extension Response {
    /// The media type of a problem document: `application/problem+json`.
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
