// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

// libFuzzer entry for HPACKDecoder (built by scripts/fuzz-http2).
//
// The input is two header blocks for one decoder (its first byte says where to cut; the second is
// decoded twice, so that the bytes decoder copies its literals from its memo), with small
// limits so the fuzzer reaches them. A decoded list must respect the list limit; encoded again by
// HPACKEncoder it must decode to the same fields on a fresh pair, and the encoder's memo (its fast
// path) must write the bytes its slow twin (`memoizes: false`) writes. The input's bytes also go through
// Huffman coding and back, and are read as a Huffman code by the fast decoder and its slow twin
// (the bit-by-bit walk), which must agree, and the machine's notes of what it wrote must be
// right. The fields the decoder marks as checked must be exactly
// those that pass the heads' field checks. The decoder into bytes (`decodeBytes`, the HTTP/2
// client's) must give what the `String` decoder (its slow twin) gives from the same table: the same
// fields, marks, list verdict, error and table. Each decoded list, with a `:path` put in and varied,
// is encoded as a series of request heads from a template (`encode(_:template:varying:into:)`) and
// by the slow twin, which must write the same bytes. Any divergence traps, which libFuzzer records as a crash.

/// A template's key: one per series of heads.
final class FuzzSeries: Sendable {}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHPACK(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let cut = input.isEmpty ? 0 : Int(input[0]) % (input.count + 1)
    var decoder = HPACKDecoder(maxTableSize: 256, maxHeaderListSize: 2048, maxStringLength: 1024)
    var encoder = HPACKEncoder(maxTableSize: 256)
    var slowEncoder = HPACKEncoder(maxTableSize: 256, memoizes: false)
    var peer = HPACKDecoder(maxTableSize: 256, maxHeaderListSize: 1 << 20, maxStringLength: 1 << 20)
    var bytesDecoder = HPACKDecoder(maxTableSize: 256, maxHeaderListSize: 2048, maxStringLength: 1024, memoizesLiterals: true)
    var templated = HPACKEncoder(maxTableSize: 256)
    var templatedTwin = HPACKEncoder(maxTableSize: 256, memoizes: false)
    // The second block twice: its Huffman-coded literals come again where they stood, and the bytes
    // decoder copies them from its memo (`HPACKLiteralMemo`) the second time.
    for block in [Array(input.prefix(cut)), Array(input.dropFirst(cut)), Array(input.dropFirst(cut))] {
        let slowResult = Result { () throws(HPACKError) in try decoder.decode(block) }
        let bytesResult = Result { () throws(HPACKError) in try block.withUnsafeBufferPointer { (bytes) throws(HPACKError) in try bytesDecoder.decodeBytes(bytes) } }
        switch (slowResult, bytesResult) {
        case (.success(let slow), .success(let fast)):
            precondition(fast.fields.map { "\($0.name): \($0.value)" } == slow.fields.map { "\($0.name): \($0.value)" }, "the bytes decoder's fields differ")
            precondition(fast.checkedFields == slow.checkedFields && fast.overListSize == slow.overListSize, "the bytes decoder's marks or verdict differ")
        case (.failure(let slow), .failure(let fast)):
            precondition(slow == fast, "the decoders refused the block for different reasons")
        default:
            preconditionFailure("one decoder refused the block, the other not")
        }
        precondition(bytesDecoder.dynamicTableSize == decoder.dynamicTableSize && bytesDecoder.dynamicTableCount == decoder.dynamicTableCount,
                     "the decoders' tables differ")
        guard case .success(let decoded) = slowResult else { break }
        // A series of request heads: the decoded fields with a `:path` put in, varied.
        let series = FuzzSeries()
        let at = block.isEmpty ? 0 : Int(block[block.count / 2]) % (decoded.fields.count + 1)
        for value in ["/", String(decoding: block.prefix(8), as: UTF8.self), "/index.html", String(decoding: block.suffix(5), as: UTF8.self)] {
            var fields = decoded.fields
            fields.insert((":path", value), at: at)
            var fast: [UInt8] = [], slow: [UInt8] = []
            templated.encode(fields, template: series, varying: (at, (":path", value)), into: &fast)
            templatedTwin.encode(fields, into: &slow)
            precondition(fast == slow, "a head from the template differs from the slow twin's")
        }
        let listSize = decoded.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 }
        precondition(decoded.overListSize || listSize <= 2048, "a list of \(listSize) bytes passed the limit")
        precondition(!decoded.overListSize || decoded.fields.isEmpty, "fields kept over the limit")
        // The decoder's marks (the heads' fast path) against checking each field (their slow twin).
        for (index, field) in decoded.fields.enumerated() where index < 64 {
            let valid = HTTP2FieldRules.isValidName(field.name) && HTTP2FieldRules.isValidValue(field.value)
            precondition(HTTP2FieldRules.isChecked(index, in: decoded.checkedFields) == valid, "field \(index)'s mark disagrees with its checks")
        }
        var encoded: [UInt8] = []
        encoder.encode(decoded.fields, into: &encoded)
        var slowEncoded: [UInt8] = []
        slowEncoder.encode(decoded.fields, into: &slowEncoded)
        precondition(encoded == slowEncoded, "the memo and the slow twin wrote different bytes")
        let again = try? peer.decode(encoded)
        precondition(again.map { $0.fields.map { "\($0.name): \($0.value)" } } == decoded.fields.map { "\($0.name): \($0.value)" },
                     "encoded again, the fields differ")
        precondition(peer.dynamicTableSize == encoder.dynamicTableSize, "the encoder's and its peer's tables differ")
    }
    var huffman: [UInt8] = []
    HPACKHuffman.encode(input, into: &huffman)
    precondition(huffman.count == HPACKHuffman.encodedCount(input), "the Huffman size estimate is wrong")
    let back = huffman.withUnsafeBufferPointer { try? HPACKHuffman.decode($0) }
    precondition(back == input, "Huffman coding did not round-trip")
    // The input as a Huffman code itself (mostly an invalid one): the fast decoder and its slow
    // twin must give the same bytes, or both refuse it.
    let fast = input.withUnsafeBufferPointer { try? HPACKHuffman.decode($0) }
    var slow: [UInt8]? = []
    input.withUnsafeBufferPointer { bytes in
        do { try HPACKHuffman.decodeBitByBit(bytes, into: &slow!) } catch { slow = nil }
    }
    precondition(fast == slow, "the fast Huffman decoder and its slow twin disagree")
    // The machine's notes of what it wrote against reading the bytes.
    if let fast {
        var out = [UInt8](repeating: 0, count: HPACKHuffman.decodedCapacity(input.count))
        let noted = input.withUnsafeBufferPointer { bytes in out.withUnsafeMutableBufferPointer { try? HPACKHuffman.decodeNoting(bytes, into: $0) } }
        precondition(noted?.notes == fast.withUnsafeBufferPointer { HPACKHuffman.Notes(of: $0) }, "the Huffman machine's notes are wrong")
    }
    return 0
}
