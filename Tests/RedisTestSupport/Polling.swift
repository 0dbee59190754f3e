import Foundation

/// Polls `condition` every 5 ms until it holds or `seconds` pass; true when it held.
/// For waiting on another process or socket, where no callback says "now".
public func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}
