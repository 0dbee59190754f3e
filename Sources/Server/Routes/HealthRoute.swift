import HTTP
import Streams

/// `GET /health`: the process is up and serving.
enum HealthRoute {
    static let body = Array(#"{"status":"ok"}"#.utf8)

    static func handle(_ request: Request) -> DataStream<Response> {
        .just(.json(body))
    }
}
