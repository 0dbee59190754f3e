// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import StreamServiceConcurrency
import Dispatch
import NetCore

/// Sends one request over a NetCore TLS client connection and collects everything until the server closes.
public enum TLSExchange {
    public struct TimedOut: Error {}

    public static func run(port: Int, host: String = "localhost", context: TLSContext, request: String) throws -> String {
        let received = Locked<[UInt8]>([])
        let outcome = Locked<Error?>(nil)
        let connection = Locked<ByteStream?>(nil) // the caller owns a client stream; keep it alive
        let finished = DispatchSemaphore(value: 0)
        ByteStreamConnector.connect(host: host, port: port, tls: context, timeout: .seconds(5)) { result in
            switch result {
            case .failure(let error):
                outcome.withLock { $0 = error }
                finished.signal()
            case .success(let stream):
                connection.withLock { $0 = stream }
                stream.onRead = { bytes in received.withLock { $0.append(contentsOf: bytes) } }
                stream.onClose = { _ in finished.signal() }
                stream.write(Array(request.utf8))
            }
        }
        let waited = finished.wait(timeout: .now() + 10)
        connection.withLock { $0 = nil }
        if waited == .timedOut { throw TimedOut() }
        if let error = outcome.withLock({ $0 }) { throw error }
        return String(decoding: received.withLock { $0 }, as: UTF8.self)
    }
}
