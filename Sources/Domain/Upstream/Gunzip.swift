import CZlib

/// Inflates a gzip (RFC 1952) body with zlib.
enum Gunzip {
    static func inflate(_ input: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // 16 + MAX_WBITS: expect a gzip header and trailer rather than a zlib one.
        guard inflateInit2_(&stream, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var source = input
        return source.withUnsafeMutableBufferPointer { inputBuffer -> [UInt8]? in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            while true {
                let code = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[..<produced])
                if code == Z_STREAM_END { return output }
                guard code == Z_OK, produced > 0 || stream.avail_in > 0 else { return nil }
            }
        }
    }
}
