import HTTP
import Streams

/// `GET /openapi.yaml`: the API description, compiled into the binary so it is
/// served the same from a checkout and from the container.
enum OpenAPIRoute {
    static let contentType = "application/yaml; charset=utf-8"

    static func handle(_ request: Request) -> DataStream<Response> {
        .just(Response(status: .ok, headers: ["Content-Type": contentType], body: .bytes(OpenAPIDocument.bytes)))
    }
}
