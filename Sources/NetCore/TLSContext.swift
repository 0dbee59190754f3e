import COpenSSL

/// An OpenSSL `SSL_CTX` built from a `TLSConfiguration`; shared by every
/// connection of a server or client.
// @unchecked: the SSL_CTX is never mutated after init and OpenSSL locks its internal state (session cache, refcounts).
public final class TLSContext: @unchecked Sendable {
    let context: OpaquePointer
    public let configuration: TLSConfiguration

    public init(configuration: TLSConfiguration) throws {
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
        if let cipherList = configuration.cipherList, SSL_CTX_set_cipher_list(context, cipherList) != 1 {
            throw TLSError.fromOpenSSL("invalid cipher list \(cipherList)")
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
    }
}
