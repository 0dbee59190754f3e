// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import COpenSSL

/// One connection's TLS state over OpenSSL memory BIOs: ciphertext from the
/// socket is fed in, plaintext comes out, and vice versa. No socket I/O
/// happens here, so it composes with non-blocking Dispatch sources.
/// Not thread-safe: owned by one connection on its event loop.
public final class TLSSession {
    private let ssl: OpaquePointer
    private let incoming: OpaquePointer
    private let outgoing: OpaquePointer
    public private(set) var handshakeComplete = false
    public let isServer: Bool

    public enum Progress: Equatable {
        case done
        case needsMoreInput
        case closed
        case failed(String)
    }

    /// A session for `context`; clients pass the server's hostname for SNI and verification.
    public init(context: TLSContext, serverName: String? = nil) throws {
        guard let ssl = SSL_new(context.context) else { throw TLSError.fromOpenSSL("SSL_new") }
        guard let incoming = BIO_new(BIO_s_mem()), let outgoing = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw TLSError.fromOpenSSL("BIO_new")
        }
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
        isServer = context.configuration.isServer
        SSL_set_bio(ssl, incoming, outgoing)
        if context.configuration.isServer {
            SSL_set_accept_state(ssl)
        } else {
            SSL_set_connect_state(ssl)
            if let serverName {
                _ = serverName.withCString { name in
                    SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name), UnsafeMutableRawPointer(mutating: name))
                }
                if context.configuration.verifyPeer && SSL_set1_host(ssl, serverName) != 1 {
                    SSL_free(ssl)
                    throw TLSError.fromOpenSSL("SSL_set1_host \(serverName)")
                }
            }
        }
    }

    deinit {
        SSL_free(ssl) // also frees both BIOs
    }

    /// Hands ciphertext read from the socket to OpenSSL.
    public func feed(_ ciphertext: UnsafeRawBufferPointer) {
        guard var base = ciphertext.baseAddress else { return }
        var remaining = ciphertext.count
        while remaining > 0 {
            let written = BIO_write(incoming, base, Int32(min(remaining, Int(Int32.max))))
            if written <= 0 { return }
            base += Int(written)
            remaining -= Int(written)
        }
    }

    /// Advances the handshake with what was fed so far.
    public func handshake() -> Progress {
        if handshakeComplete { return .done }
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            handshakeComplete = true
            return .done
        }
        return classify(result, during: "TLS handshake")
    }

    /// Decrypts into `buffer`; returns the byte count, or how it stopped.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> (Int, Progress) {
        ERR_clear_error()
        let n = SSL_read(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        if n > 0 { return (Int(n), .done) }
        return (0, classify(n, during: "TLS read"))
    }

    /// Encrypts `plaintext`; the ciphertext waits in `drainCiphertext`.
    @discardableResult
    public func write(_ plaintext: UnsafeRawBufferPointer) -> Progress {
        guard var base = plaintext.baseAddress else { return .done }
        var remaining = plaintext.count
        while remaining > 0 {
            ERR_clear_error()
            let n = SSL_write(ssl, base, Int32(min(remaining, 1 << 20)))
            if n <= 0 { return classify(n, during: "TLS write") }
            base += Int(n)
            remaining -= Int(n)
        }
        return .done
    }

    /// Appends the ciphertext OpenSSL produced (handshake records, encrypted data) to `output`.
    public func drainCiphertext(into output: inout [UInt8]) {
        while true {
            let pending = Int(BIO_ctrl_pending(outgoing))
            if pending <= 0 { return }
            let start = output.count
            output.append(contentsOf: repeatElement(0, count: pending))
            let n = output.withUnsafeMutableBytes { raw in
                BIO_read(outgoing, raw.baseAddress! + start, Int32(pending))
            }
            output.removeLast(pending - max(0, Int(n)))
            if n <= 0 { return }
        }
    }

    public var hasPendingCiphertext: Bool { BIO_ctrl_pending(outgoing) > 0 }

    /// Queues a close_notify alert.
    public func shutdown() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
    }

    /// The application protocol agreed by ALPN, e.g. `http/1.1`, or nil.
    public var negotiatedApplicationProtocol: String? {
        var name: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &name, &length)
        guard let name, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: name, count: Int(length)), as: UTF8.self)
    }

    /// The negotiated protocol, e.g. `TLSv1.3`.
    public var negotiatedVersion: String {
        String(cString: SSL_get_version(ssl))
    }

    private func classify(_ result: Int32, during operation: String) -> Progress {
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return .needsMoreInput
        case SSL_ERROR_ZERO_RETURN: return .closed
        default: return .failed(TLSError.fromOpenSSL(operation).description)
        }
    }
}
