// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Dispatch

/// Readiness of one descriptor (readable or writable) reported on its event loop, with the
/// part of a Dispatch read/write source's interface `ByteStream` and the connector use:
/// created suspended, `resume`/`suspend` counted, `cancel` stops events at once and runs the
/// cancel handler later on the loop, so a descriptor is closed only after nothing watches it.
/// Made by `EventLoop.makeReadSource(fileDescriptor:)` / `makeWriteSource(fileDescriptor:)`;
/// call it on its loop (a call from elsewhere is queued to the loop).
// @unchecked: the Dispatch source is thread-safe; the epoll side is only touched on the loop thread.
public final class LoopIOSource: @unchecked Sendable {
    private enum Backend {
        case dispatch(any DispatchSourceProtocol)
        #if os(Linux)
        case epoll(EpollLoop, EpollRegistration, EpollRegistration.Side)
        #endif
    }

    private let backend: Backend
    #if os(Linux)
    private var cancelHandler: (@Sendable () -> Void)?
    private var cancelled = false
    #endif

    init(dispatch source: any DispatchSourceProtocol) {
        backend = .dispatch(source)
    }

    #if os(Linux)
    /// Must be made on the loop thread.
    init(epoll loop: EpollLoop, fileDescriptor: Int32, writable: Bool) {
        let registration = loop.registration(for: fileDescriptor)
        let side = writable ? registration.write : registration.read
        side.inUse = true
        side.suspendCount = 1
        side.handler = nil
        backend = .epoll(loop, registration, side)
    }
    #endif

    public func setEventHandler(_ handler: @escaping @Sendable () -> Void) {
        switch backend {
        case .dispatch(let source): source.setEventHandler(handler: handler)
        #if os(Linux)
        case .epoll(let loop, let registration, let side):
            loop.perform { [self] in
                guard !cancelled else { return }
                side.handler = handler
                loop.update(registration)
            }
        #endif
        }
    }

    public func setCancelHandler(_ handler: @escaping @Sendable () -> Void) {
        switch backend {
        case .dispatch(let source): source.setCancelHandler(handler: handler)
        #if os(Linux)
        case .epoll(let loop, _, _): loop.perform { [self] in cancelHandler = handler }
        #endif
        }
    }

    public func resume() {
        switch backend {
        case .dispatch(let source): source.resume()
        #if os(Linux)
        case .epoll(let loop, let registration, let side):
            loop.perform { [self] in
                guard !cancelled, side.suspendCount > 0 else { return }
                side.suspendCount -= 1
                loop.update(registration)
            }
        #endif
        }
    }

    public func suspend() {
        switch backend {
        case .dispatch(let source): source.suspend()
        #if os(Linux)
        case .epoll(let loop, let registration, let side):
            loop.perform { [self] in
                guard !cancelled else { return }
                side.suspendCount += 1
                loop.update(registration)
            }
        #endif
        }
    }

    /// No events after this returns (on the loop); the cancel handler runs on a later turn.
    public func cancel() {
        switch backend {
        case .dispatch(let source): source.cancel()
        #if os(Linux)
        case .epoll(let loop, let registration, let side):
            loop.perform { [self] in
                guard !cancelled else { return }
                cancelled = true
                side.inUse = false
                side.handler = nil
                loop.update(registration)
                if let cancelHandler {
                    self.cancelHandler = nil
                    loop.execute(cancelHandler)
                }
            }
        #endif
        }
    }
}
