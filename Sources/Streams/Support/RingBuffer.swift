/// A FIFO queue on a circular buffer: O(1) append and removal at the front,
/// so operators that buffer (zip, merge's outbox, redirect's backlog) stay
/// flat per element however long the queue grows.
struct RingBuffer<Element> {
    private var storage: [Element?] = []
    private var head = 0
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { count == 0 }

    var first: Element? { isEmpty ? nil : storage[head] }

    mutating func append(_ element: Element) {
        if count == storage.count { grow() }
        storage[(head + count) % storage.count] = element
        count += 1
    }

    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        return element
    }

    mutating func removeAll() {
        storage = []
        head = 0
        count = 0
    }

    private mutating func grow() {
        var bigger = [Element?](repeating: nil, count: Swift.max(8, storage.count * 2))
        for offset in 0..<count {
            bigger[offset] = storage[(head + offset) % storage.count]
        }
        storage = bigger
        head = 0
    }
}

extension RingBuffer: Sendable where Element: Sendable {}

extension RingBuffer {
    /// The elements from first to last.
    var elements: [Element] {
        (0..<count).compactMap { storage[(head + $0) % storage.count] }
    }
}
