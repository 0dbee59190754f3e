// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import COpenSSL

/// An OpenSSL `SSL_CTX` built from a `TLSConfiguration`; shared by every
/// connection of a server or client.
// @unchecked: the SSL_CTX is never mutated after init and OpenSSL locks its internal state (session cache, refcounts).
public final class TLSContext: @unchecked Sendable {
    let context: OpaquePointer
    public let configuration: TLSConfiguration
    /// The ALPN protocols in wire format (length-prefixed names), at a stable address
    /// that OpenSSL's selection callback reads.
    private let alpnWire: UnsafeMutablePointer<UnsafeMutableBufferPointer<UInt8>>

    public init(configuration: TLSConfiguration) throws {
        OpenSSLSetup.ensure()
        self.configuration = configuration
        let method = configuration.isServer ? TLS_server_method() : TLS_client_method()
        guard let context = SSL_CTX_new(method) else { throw TLSError.fromOpenSSL("SSL_CTX_new") }
        self.context = context
        SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(configuration.minimumVersion.rawValue), nil)
        if let maximum = configuration.maximumVersion {
            SSL_CTX_ctrl(context, SSL_CTRL_SET_MAX_PROTO_VERSION, Int(maximum.rawValue), nil)
        }
        // Idle connections (e.g. SSE clients) should not hold 2 × 16 KiB of TLS buffers each.
        SSL_CTX_ctrl(context, SSL_CTRL_MODE, Int(SSL_MODE_RELEASE_BUFFERS), nil)
        // No TLS 1.2 renegotiation: HTTP/2 forbids it (RFC 9113 §9.2.1), and nothing here needs it.
        // SSL_OP_NO_RENEGOTIATION is SSL_OP_BIT(30), a macro Swift does not import.
        SSL_CTX_set_options(context, 1 << 30)
        alpnWire = .allocate(capacity: 1)
        alpnWire.initialize(to: Self.wireFormat(configuration.alpnProtocols))
        if let cipherList = configuration.cipherList, SSL_CTX_set_cipher_list(context, cipherList) != 1 {
            throw TLSError.fromOpenSSL("invalid cipher list \(cipherList)")
        }
        if let cipherSuites = configuration.cipherSuites, SSL_CTX_set_ciphersuites(context, cipherSuites) != 1 {
            throw TLSError.fromOpenSSL("invalid TLS 1.3 cipher suites \(cipherSuites)")
        }
        if let groups = configuration.groups {
            // SSL_CTX_set1_groups_list is a macro over this control.
            let accepted = groups.withCString { SSL_CTX_ctrl(context, SSL_CTRL_SET_GROUPS_LIST, 0, UnsafeMutableRawPointer(mutating: $0)) }
            guard accepted == 1 else { throw TLSError.fromOpenSSL("invalid groups \(groups)") }
        }
        let wire = alpnWire.pointee
        if !wire.isEmpty {
            if configuration.isServer {
                SSL_CTX_set_alpn_select_cb(context, selectALPN, UnsafeMutableRawPointer(alpnWire))
            } else if SSL_CTX_set_alpn_protos(context, wire.baseAddress, UInt32(wire.count)) != 0 { // 0 means success here
                throw TLSError.fromOpenSSL("invalid ALPN protocols \(configuration.alpnProtocols)")
            }
        }
        switch configuration.role {
        case .server(let certificateFile, let keyFile):
            guard SSL_CTX_use_certificate_chain_file(context, certificateFile) == 1 else {
                throw TLSError.fromOpenSSL("cannot load certificate \(certificateFile)")
            }
            guard SSL_CTX_use_PrivateKey_file(context, keyFile, SSL_FILETYPE_PEM) == 1 else {
                throw TLSError.fromOpenSSL("cannot load private key \(keyFile)")
            }
            guard SSL_CTX_check_private_key(context) == 1 else {
                throw TLSError.fromOpenSSL("private key \(keyFile) does not match certificate \(certificateFile)")
            }
        case .client:
            if configuration.verifyPeer {
                SSL_CTX_set_default_verify_paths(context)
                if let caFile = configuration.trustedCAFile, SSL_CTX_load_verify_locations(context, caFile, nil) != 1 {
                    throw TLSError.fromOpenSSL("cannot load CA file \(caFile)")
                }
                SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            } else {
                SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
            }
        }
    }

    deinit {
        SSL_CTX_free(context)
        alpnWire.pointee.deallocate()
        alpnWire.deallocate()
    }

    /// `["http/1.1"]` → `\u{8}http/1.1`, the list form ALPN uses on the wire (RFC 7301 §3.1).
    static func wireFormat(_ protocols: [String]) -> UnsafeMutableBufferPointer<UInt8> {
        let bytes = protocols.flatMap { name -> [UInt8] in
            let utf8 = Array(name.utf8.prefix(255))
            return [UInt8(utf8.count)] + utf8
        }
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
    }
}

/// The server's ALPN choice: its first protocol the client also offers; none in common is a
/// fatal `no_application_protocol` alert, as RFC 7301 §3.2 requires. `argument` is the context's `alpnWire`.
private let selectALPN: @convention(c) (
    OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
    UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?
) -> Int32 = { _, out, outLength, offered, offeredLength, argument in
    guard let out, let outLength, let offered, let argument else { return SSL_TLSEXT_ERR_ALERT_FATAL }
    let server = argument.assumingMemoryBound(to: UnsafeMutableBufferPointer<UInt8>.self).pointee
    let result = out.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 1) { selected in
        SSL_select_next_proto(selected, outLength, server.baseAddress, UInt32(server.count), offered, offeredLength)
    }
    return result == OPENSSL_NPN_NEGOTIATED ? SSL_TLSEXT_ERR_OK : SSL_TLSEXT_ERR_ALERT_FATAL
}
