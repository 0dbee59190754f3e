import CZlib

struct GzipFailed: Error {}

/// Test-side gzip compression (deflateInit2 with a gzip wrapper), to feed the decoder.
func gzip(_ input: [UInt8]) throws -> [UInt8] {
    var stream = z_stream()
    guard deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { throw GzipFailed() }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
    var source = input
    let code = source.withUnsafeMutableBufferPointer { inBuffer in
        output.withUnsafeMutableBufferPointer { outBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            stream.next_out = outBuffer.baseAddress
            stream.avail_out = uInt(outBuffer.count)
            return deflate(&stream, Z_FINISH)
        }
    }
    guard code == Z_STREAM_END else { throw GzipFailed() }
    return Array(output[..<Int(stream.total_out)])
}
