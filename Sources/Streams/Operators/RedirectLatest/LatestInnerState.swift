/// Which inner stream of `redirectLatest` is current and whether anything still runs.
struct LatestInnerState {
    var generation: UInt64 = 0
    var innerRunning = false
    var outerEnded = false
}
