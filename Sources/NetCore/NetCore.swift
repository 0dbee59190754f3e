import CZlib
import COpenSSL
/// NetCore: sockets, TLS and gzip.
public enum NetCore {}
