// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// How a child ended.
    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        /// It called `exit` with this status.
        case exited(Int32)
        /// A signal ended it.
        case killed(signal: Int32)
        /// `waitpid` could not report it (`errno`): something else reaped the child, e.g. with SIGCHLD ignored.
        case unobserved(errno: Int32)

        /// Decodes a `waitpid` status (the `WIFEXITED`/`WTERMSIG` macros, which Swift does not import).
        init(waitStatus status: Int32) {
            let signal = status & 0x7f
            self = signal == 0 ? .exited((status >> 8) & 0xff) : .killed(signal: signal)
        }

        public var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .killed(let signal): "killed by signal \(signal)"
            case .unobserved(let errno): "not observed (waitpid errno \(errno))"
            }
        }
    }
}
