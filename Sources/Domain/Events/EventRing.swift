/// One stripe's events, oldest first: a ring of at most `capacity`, each numbered as it is filed.
struct EventRing {
    private var events: [PipelineEvent] = []
    private var start = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Files `event` as number `id` (larger than any filed here), the oldest making room when full.
    mutating func append(_ event: PipelineEvent, id: Int) -> PipelineEvent {
        var numbered = event
        numbered.id = id
        if events.count < capacity {
            events.append(numbered)
        } else {
            events[start] = numbered
            start = (start + 1) % capacity
        }
        return numbered
    }

    /// The events with ids above `id`, oldest first.
    func events(after id: Int) -> [PipelineEvent] {
        (events[start...] + events[..<start]).filter { $0.id > id }
    }
}
