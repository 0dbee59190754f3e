/// A TLS protocol version, as OpenSSL numbers them.
public enum TLSVersion: Int32, Sendable, Comparable {
    case tls1_0 = 0x0301
    case tls1_1 = 0x0302
    case tls1_2 = 0x0303
    case tls1_3 = 0x0304

    public static func < (lhs: TLSVersion, rhs: TLSVersion) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How to set up TLS for one side of a connection.
public struct TLSConfiguration: Sendable {
    public enum Role: Sendable {
        /// Serve with a PEM certificate chain and its PEM private key.
        case server(certificateChainFile: String, privateKeyFile: String)
        /// Connect and verify the server (system CAs plus `trustedCAFile`, hostname checked).
        case client
    }

    public var role: Role
    /// Oldest version accepted; TLS 1.2 unless a test needs otherwise.
    public var minimumVersion: TLSVersion = .tls1_2
    public var maximumVersion: TLSVersion?
    /// Extra PEM CA bundle to trust (clients), e.g. a test's self-signed certificate.
    public var trustedCAFile: String?
    /// Clients verify the server's chain and hostname unless this is false.
    public var verifyPeer: Bool = true
    /// An OpenSSL cipher string for TLS ≤ 1.2, e.g. `DEFAULT:@SECLEVEL=0`.
    public var cipherList: String?

    public init(role: Role) {
        self.role = role
    }

    public static func server(certificateChainFile: String, privateKeyFile: String) -> TLSConfiguration {
        TLSConfiguration(role: .server(certificateChainFile: certificateChainFile, privateKeyFile: privateKeyFile))
    }

    public static func client(trustedCAFile: String? = nil, verifyPeer: Bool = true) -> TLSConfiguration {
        var configuration = TLSConfiguration(role: .client)
        configuration.trustedCAFile = trustedCAFile
        configuration.verifyPeer = verifyPeer
        return configuration
    }

    public var isServer: Bool {
        if case .server = role { return true }
        return false
    }
}
