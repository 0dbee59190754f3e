// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Streams

/// Validated reads of a request's query parameters. Every route reads its parameters
/// through this type, so a bad one always gets the same answer: 400 with the problem
/// `InvalidQueryParameter.response(instance:)` describes. A parameter given twice
/// (`limit=5&limit=6`) is refused rather than silently read as its first value, and
/// `withQuery` refuses a parameter its reader never asked for (`refuseUnknown`).
///
/// ```swift
/// let parameters = request.queryParameters
/// let limit = try parameters.integer("limit", in: 1...100, default: 30)
/// ```
public struct QueryParameters: Sendable {
    /// The parsed query, for a read this type has no method for.
    public let items: QueryItems
    /// Every name asked for, present or not, in order (repeats included): the parameters the route reads.
    let consulted: Locked<[String]>

    /// Validated reads of `items` (``Request/queryParameters`` makes one for a request).
    public init(_ items: QueryItems) {
        self.items = items
        // Room for a route's few names up front: growing 1, 2, 4, 8 cost three more allocations a request.
        var names: [String] = []
        names.reserveCapacity(8)
        consulted = Locked(names)
    }

    /// The one value of `name`, or nil when it is absent.
    public func value(_ name: String) throws(InvalidQueryParameter) -> String? {
        consulted.withLock { $0.append(name) }
        let values = items.values(for: name)
        guard values.count <= 1 else {
            throw InvalidQueryParameter(name: name, value: values.joined(separator: "', '"), reason: "must be given at most once")
        }
        return values.first
    }

    /// A decimal integer within `range`; `fallback` when absent.
    public func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws(InvalidQueryParameter) -> Int {
        guard let text = try value(name) else { return fallback }
        guard let number = Int(text), range.contains(number) else {
            throw InvalidQueryParameter(name: name, value: text, reason: "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// One of `known`; nil when absent or empty (meaning "no restriction"). A value not among them
    /// is refused naming them, with the closest as a "did you mean" (`pipeline=user` → `users`).
    public func value(_ name: String, among known: [String]) throws(InvalidQueryParameter) -> String? {
        guard let text = try value(name), !text.isEmpty else { return nil }
        guard known.contains(text) else {
            throw InvalidQueryParameter(name: name, value: text, reason: "must be one of " + known.joined(separator: ", "), hint: Self.didYouMean(text, among: known))
        }
        return text
    }

    /// One of `Choice`'s raw values; `fallback` when absent.
    public func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, default fallback: Choice) throws(InvalidQueryParameter) -> Choice
    where Choice.RawValue == String {
        guard let text = try value(name) else { return fallback }
        guard let choice = Choice(rawValue: text) else {
            throw InvalidQueryParameter(name: name, value: text, reason: "must be one of " + Self.names(of: Choice.self),
                                        hint: Self.didYouMean(text, among: Choice.allCases.map(\.rawValue)))
        }
        return choice
    }

    /// A comma-separated list of `Choice`'s raw values (blanks around each allowed);
    /// nil when absent or empty, meaning "no restriction".
    public func choices<Choice: RawRepresentable & CaseIterable & Hashable>(_ name: String, of _: Choice.Type = Choice.self) throws(InvalidQueryParameter) -> Set<Choice>?
    where Choice.RawValue == String {
        guard let text = try value(name), !text.isEmpty else { return nil }
        var chosen = Set<Choice>()
        for element in text.split(separator: ",") {
            guard let choice = Choice(rawValue: String(element.trimmingSpaces)) else {
                let typed = String(element.trimmingSpaces)
                throw InvalidQueryParameter(name: name, value: text, reason: "must list values from " + Self.names(of: Choice.self),
                                            hint: Self.didYouMean(typed, among: Choice.allCases.map(\.rawValue)).map { "'\(typed)': " + $0 })
            }
            chosen.insert(choice)
        }
        return chosen
    }

    /// `did you mean 'users'?` when one of `known` is close to `typed`.
    static func didYouMean(_ typed: String, among known: [String]) -> String? {
        EditDistance.closest(to: typed, among: known).map { "did you mean '\($0)'?" }
    }

    private static func names<Choice: RawRepresentable & CaseIterable>(of _: Choice.Type) -> String where Choice.RawValue == String {
        Choice.allCases.map(\.rawValue).joined(separator: ", ")
    }
}

/// A query parameter that failed validation: answered 400, naming the parameter and quoting the value.
public struct InvalidQueryParameter: HTTPResponseError, Sendable, Equatable, CustomStringConvertible {
    /// The problem document's `title` for every bad parameter.
    public static let title = "Invalid query parameter"

    /// The parameter's name.
    public let name: String
    /// The value as sent (several, quoted and comma-separated, when repeated).
    public let value: String
    /// What a valid value looks like, e.g. `must be an integer from 1 to 100`.
    public let reason: String
    /// What to send instead, when the reason alone does not say, e.g. `did you mean 'limit'?`.
    public let hint: String?

    /// An error naming `name`, quoting `value`, saying what a valid one looks like and, optionally, what to send instead.
    public init(name: String, value: String, reason: String, hint: String? = nil) {
        self.name = name
        self.value = value
        self.reason = reason
        self.hint = hint
    }

    /// `Query parameter 'limit' must be an integer from 1 to 100, got '500'`, then `; ` and the hint if any.
    public var detail: String { "Query parameter '\(name)' \(reason), got '\(value)'" + (hint.map { "; \($0)" } ?? "") }

    /// The problem's ``detail``.
    public var description: String { detail }

    /// The problem+json answer every route gives for a bad parameter.
    public func response(instance: String? = nil) -> Response {
        .problem(status: .badRequest, detail: detail, title: Self.title, instance: instance)
    }
}

extension Request {
    /// This request's query, for validated reads.
    public var queryParameters: QueryParameters { QueryParameters(query) }

    /// The answer of `handler` given what `read` makes of the query parameters, or the 400
    /// problem for the first bad one — a parameter `read` did not ask for included, unless
    /// it is one of `ignored`:
    ///
    ///     request.withQuery({ try $0.integer("limit", in: 1...100, default: 30) }) { limit in … }
    ///
    /// `read` may throw anything: an `HTTPResponseError` (as `InvalidQueryParameter` is) answers
    /// with its own problem, any other error fails the stream (the server's generic 500).
    public func withQuery<Query, Failure: Error>(
        _ read: (QueryParameters) throws(Failure) -> Query,
        ignoring ignored: Set<String> = [],
        _ handler: (Query) -> DataStream<Response>
    ) -> DataStream<Response> {
        let parameters = queryParameters
        let query: Query
        do {
            query = try read(parameters)
        } catch let error as any HTTPResponseError {
            return .just(error.response(instance: path))
        } catch {
            return .just(error: error)
        }
        do {
            try parameters.refuseUnknown(ignoring: ignored)
        } catch {
            return .just(error.response(instance: path))
        }
        return handler(query)
    }
}
