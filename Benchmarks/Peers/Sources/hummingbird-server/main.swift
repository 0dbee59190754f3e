// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import HummingbirdPeerSupport
import PeerSupport
import Hummingbird

// Hummingbird 2 peer: the same /health, /ticks and /events as stream-service, written the way the
// framework's documentation writes them (router closures, ResponseBody writer), with its defaults.
let options = ServerOptions()
let broadcast = TickBroadcast()
let router = Router()

router.addHealthRoute()

let sseHeaders: HTTPFields = [
    .contentType: "text/event-stream; charset=utf-8",
    .cacheControl: "no-cache",
]

router.get("ticks") { request, _ in
    let query = request.uri.queryParameters
    let schedule = TickSchedule(
        everyMs: query.get("everyMs", as: Int.self),
        count: query.get("count", as: Int.self)
    )
    return Response(status: .ok, headers: sseHeaders, body: ResponseBody { writer in
        for tick in 0..<schedule.count {
            try await schedule.waitFor(tick: tick)
            try await writer.write(ByteBuffer(string: TickEvent.text(tick)))
        }
        try await writer.finish(nil)
    })
}

router.get("events") { _, _ in
    let feed = broadcast.subscribe()
    return Response(status: .ok, headers: sseHeaders, body: ResponseBody { writer in
        for await tick in feed {
            try await writer.write(ByteBuffer(string: TickEvent.text(tick)))
        }
        try await writer.finish(nil)
    })
}

let app = Application(
    router: router,
    configuration: .init(address: .hostname(options.host, port: options.port), serverName: "hummingbird-bench")
)
print("hummingbird-server listening on http://\(options.host):\(options.port)")
// The broadcast clock runs beside the server and stops with it.
try await withThrowingDiscardingTaskGroup { group in
    group.addTask { await broadcast.run() }
    try await app.runService()
    group.cancelAll()
}
