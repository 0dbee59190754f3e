// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// A response status code with its reason phrase.
public struct HTTPStatus: Sendable, Hashable, CustomStringConvertible {
    /// The three-digit status code.
    public let code: Int
    /// The reason phrase an HTTP/1.1 status line carries (HTTP/2 sends none).
    public let reasonPhrase: String

    /// A status with this code; without a phrase, the standard one (``standardReasonPhrase(for:)``).
    public init(code: Int, reasonPhrase: String? = nil) {
        self.code = code
        self.reasonPhrase = reasonPhrase ?? HTTPStatus.standardReasonPhrase(for: code)
    }

    /// The code and its phrase, as in a status line (`404 Not Found`).
    public var description: String { "\(code) \(reasonPhrase)" }

    /// 1xx, 204 and 304 responses never carry a body (RFC 9110 §6.4.1).
    public var allowsBody: Bool { !(100..<200).contains(code) && code != 204 && code != 304 }

    /// 100 Continue.
    public static let `continue` = HTTPStatus(code: 100)
    /// 200 OK.
    public static let ok = HTTPStatus(code: 200)
    /// 201 Created.
    public static let created = HTTPStatus(code: 201)
    /// 202 Accepted.
    public static let accepted = HTTPStatus(code: 202)
    /// 204 No Content.
    public static let noContent = HTTPStatus(code: 204)
    /// 301 Moved Permanently.
    public static let movedPermanently = HTTPStatus(code: 301)
    /// 302 Found.
    public static let found = HTTPStatus(code: 302)
    /// 304 Not Modified.
    public static let notModified = HTTPStatus(code: 304)
    /// 400 Bad Request.
    public static let badRequest = HTTPStatus(code: 400)
    /// 401 Unauthorized.
    public static let unauthorized = HTTPStatus(code: 401)
    /// 403 Forbidden.
    public static let forbidden = HTTPStatus(code: 403)
    /// 404 Not Found.
    public static let notFound = HTTPStatus(code: 404)
    /// 405 Method Not Allowed.
    public static let methodNotAllowed = HTTPStatus(code: 405)
    /// 406 Not Acceptable.
    public static let notAcceptable = HTTPStatus(code: 406)
    /// 408 Request Timeout.
    public static let requestTimeout = HTTPStatus(code: 408)
    /// 409 Conflict.
    public static let conflict = HTTPStatus(code: 409)
    /// 410 Gone.
    public static let gone = HTTPStatus(code: 410)
    /// 411 Length Required.
    public static let lengthRequired = HTTPStatus(code: 411)
    /// 413 Content Too Large.
    public static let payloadTooLarge = HTTPStatus(code: 413)
    /// 414 URI Too Long.
    public static let uriTooLong = HTTPStatus(code: 414)
    /// 415 Unsupported Media Type.
    public static let unsupportedMediaType = HTTPStatus(code: 415)
    /// 417 Expectation Failed.
    public static let expectationFailed = HTTPStatus(code: 417)
    /// 422 Unprocessable Content.
    public static let unprocessableContent = HTTPStatus(code: 422)
    /// 429 Too Many Requests.
    public static let tooManyRequests = HTTPStatus(code: 429)
    /// 431 Request Header Fields Too Large.
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431)
    /// 500 Internal Server Error.
    public static let internalServerError = HTTPStatus(code: 500)
    /// 501 Not Implemented.
    public static let notImplemented = HTTPStatus(code: 501)
    /// 502 Bad Gateway.
    public static let badGateway = HTTPStatus(code: 502)
    /// 503 Service Unavailable.
    public static let serviceUnavailable = HTTPStatus(code: 503)
    /// 504 Gateway Timeout.
    public static let gatewayTimeout = HTTPStatus(code: 504)
    /// 505 HTTP Version Not Supported.
    public static let httpVersionNotSupported = HTTPStatus(code: 505)

    /// The phrase RFC 9110 gives a code, or `Status <code>` for a code it does not name.
    public static func standardReasonPhrase(for code: Int) -> String {
        switch code {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(code)"
        }
    }
}
