/// How the service names itself to upstreams. GitHub rejects API requests without a
/// `User-Agent` and asks that it name the application.
public enum ServiceIdentity {
    public static let name = "StreamService"
    public static let version = "1.1.0"
    public static let userAgent = "\(name)/\(version)"
}
