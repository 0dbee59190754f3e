/// The repository's `openapi.yaml`.
enum OpenAPIDocument {
    static let bytes: [UInt8] = Array("openapi: 3.1.0\ninfo:\n  title: StreamService\n  version: 0.1.0\npaths: {}\n".utf8)
}
