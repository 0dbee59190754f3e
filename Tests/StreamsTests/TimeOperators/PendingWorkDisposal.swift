// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Streams
import StreamsTesting
import XCTest

/// The disposal check every scheduling operator shares: `value` fed through the operator
/// leaves one piece of work pending on the scheduler; disposing the watch must cancel it,
/// release the source and the subscription, and nothing may arrive later.
func assertDisposingCancelsPendingWork<Value: Sendable & Equatable>(
    feeding value: Value,
    through apply: (Streamer<Value>, TestScheduler) -> DataStream<Value>,
    file: StaticString = #filePath, line: UInt = #line
) {
    let baseline = StreamDiagnostics.liveSubscriptions
    let scheduler = TestScheduler()
    let source = Streamer<Value>()
    let (recorder, subscription) = scheduler.record(apply(source, scheduler))
    source.data(value)
    XCTAssertEqual(scheduler.pendingCount, 1, file: file, line: line)
    subscription.dispose()
    XCTAssertEqual(scheduler.pendingCount, 0, file: file, line: line)
    XCTAssertEqual(source.watcherCount, 0, file: file, line: line)
    XCTAssertEqual(StreamDiagnostics.liveSubscriptions, baseline, file: file, line: line)
    scheduler.advance(by: .seconds(1))
    XCTAssertEqual(recorder.events, [], file: file, line: line)
}
