// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import PeerSupport
import FlyingFox
import Foundation

// FlyingFox peer: the same /health, /ticks and /events as stream-service, with the library's defaults.
let options = ServerOptions()
let broadcast = TickBroadcast()
let server = HTTPServer(address: try .inet(ip4: options.host, port: UInt16(options.port)))

let sseHeaders: HTTPHeaders = [
    .contentType: "text/event-stream; charset=utf-8",
    HTTPHeader("Cache-Control"): "no-cache",
]

await server.appendRoute("GET /health") { _ in
    HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data(HealthBody.json.utf8))
}

await server.appendRoute("GET /ticks") { request in
    let schedule = TickSchedule(
        everyMs: request.query["everyMs"].flatMap { Int($0) },
        count: request.query["count"].flatMap { Int($0) }
    )
    return HTTPResponse(statusCode: .ok, headers: sseHeaders, body: HTTPBodySequence(from: TickBytes(schedule: schedule)))
}

await server.appendRoute("GET /events") { _ in
    HTTPResponse(statusCode: .ok, headers: sseHeaders, body: HTTPBodySequence(from: BroadcastBytes(feed: broadcast.subscribe())))
}

print("flyingfox-server listening on http://\(options.host):\(options.port)")
// The broadcast clock runs beside the server and stops with it.
try await withThrowingDiscardingTaskGroup { group in
    group.addTask { await broadcast.run() }
    try await server.run()
    group.cancelAll()
}
