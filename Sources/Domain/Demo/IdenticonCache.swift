import StreamServiceConcurrency
import NetCore
import Synchronization

/// Encoded identicons by login, so repeated avatar requests skip the zlib work.
/// Bounded: when full it starts over, which keeps memory flat whatever the user count.
final class IdenticonCache: Sendable {
    private let images = Locked<[String: [UInt8]]>([:])
    let capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    func png(for login: String) -> [UInt8] {
        if let cached = images.withLock({ $0[login] }) { return cached }
        let png = Identicon(login: login).png()
        images.withLock { images in
            if images.count >= capacity { images.removeAll(keepingCapacity: true) }
            images[login] = png
        }
        return png
    }
}
