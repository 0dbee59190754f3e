// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Domain
import Foundation
import NetCore
import XCTest

extension XCTestCase {
    /// Sends `request` through `transport` and waits for its one answer (or its error).
    func answer(to request: UpstreamRequest, via transport: HTTPUpstreamTransport) throws -> UpstreamResponse {
        let answered = expectation(description: "answer to \(request.url)")
        let result = Locked<Result<UpstreamResponse, Error>?>(nil)
        let subscription = transport.send(request).watch { event in
            switch event {
            case .data(let response): result.withLock { $0 = .success(response) }
            case .error(let error): result.withLock { $0 = .failure(error) }
            case .end: break
            }
            if event.isTerminal { answered.fulfill() }
        }
        wait(for: [answered], timeout: 5)
        subscription.dispose()
        return try XCTUnwrap(result.withLock { $0 }).get()
    }
}
