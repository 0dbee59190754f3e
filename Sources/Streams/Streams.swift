/// Reactive streams. See Streams.swift.
