// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import CProcessSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process for tests, started with `posix_spawn`: redis-server, redis-cli, openssl and the
/// built `stream-service` all run through this one type.
///
/// Why not `Foundation.Process`: on Linux its `run()` scans `/proc/self/fd` and reads 256 bytes past
/// the end of its directory buffer (`findMaximumOpenFromProcSelfFD`, a heap-buffer-overflow under
/// AddressSanitizer). With the hundreds of sockets a test process holds, that read sometimes crossed
/// into an unmapped page: the suite died with SIGSEGV in `Process.run()` about once in 40 runs.
///
/// What the child gets: stdin from /dev/null; stdout and stderr captured through pipes (read to
/// their end by a thread each, so a chatty child never blocks on a full pipe), sent to /dev/null, or
/// stderr into stdout's pipe; default signal handlers and an empty signal mask (the test process
/// ignores SIGPIPE, which a child would otherwise inherit); no descriptor of the test process but
/// 0, 1 and 2 (as `Process` closed them). The parent's pipe ends are close-on-exec from the start, so
/// a child another thread spawns meanwhile does not hold them open.
///
/// A thread per child waits for its exit and reaps it, exactly once; `signal(_:)` sends nothing
/// after that, so a signal never reaches a process that reused the PID. The child is killed
/// (SIGKILL) and reaped when the last reference to its `ChildProcess` goes.
public final class ChildProcess: Sendable {
    /// Where one of the child's output streams goes.
    public enum Destination: Sendable {
        /// Into a pipe, readable as `output` / `errorOutput`.
        case captured
        /// To /dev/null.
        case discarded
        /// Into the same place as stdout (for stderr only), as `2>&1` does.
        case intoOutput
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let executable: String
    public let pid: pid_t
    private let state: State

    /// Starts `executable` (an absolute path) with `arguments`.
    ///
    /// - Parameter environment: changes to this process's environment: a value sets the variable,
    ///   `nil` removes it; the rest is inherited.
    /// - Throws: `Failure` naming the executable when it cannot be started (e.g. it does not exist).
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String?] = [:],
        output: Destination = .captured, errorOutput: Destination = .captured
    ) throws {
        precondition(output != .intoOutput, "stdout cannot go into itself")
        self.executable = executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        let outputPipe = try Self.route(output, to: STDOUT_FILENO, &actions)
        let errorPipe: Pipe?
        do { errorPipe = try Self.route(errorOutput, to: STDERR_FILENO, &actions) } catch {
            outputPipe?.closeBoth()
            throw error
        }
        // Every other descriptor (the test process's sockets, the pipes' original numbers) is closed.
        c_process_spawn_add_close_from(&actions, STDERR_FILENO + 1)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let envp = Self.environment(changedBy: environment).map { strdup($0) } + [nil]
        defer { for variable in envp { free(variable) } }

        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        for pipe in [outputPipe, errorPipe] { if let pipe { close(pipe.writeEnd) } }
        guard spawned == 0 else {
            for pipe in [outputPipe, errorPipe] { if let pipe { close(pipe.readEnd) } }
            throw Failure(description: "could not start \(executable): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        state = State(openPipes: [outputPipe, errorPipe].compactMap { $0 }.count)
        Self.reap(pid, into: state)
        if let outputPipe { Self.drain(outputPipe.readEnd, into: .output, of: state) }
        if let errorPipe { Self.drain(errorPipe.readEnd, into: .errorOutput, of: state) }
    }

    deinit {
        terminate()
    }

    /// How the child ended; `nil` while it runs.
    public var termination: Termination? { state.locked { $0.termination } }

    public var isRunning: Bool { termination == nil }

    /// Everything the child wrote to stdout so far (all of it once `wait` returned).
    public var output: String { state.locked { String(decoding: $0.bytes[.output, default: []], as: UTF8.self) } }

    /// Everything the child wrote to stderr so far.
    public var errorOutput: String { state.locked { String(decoding: $0.bytes[.errorOutput, default: []], as: UTF8.self) } }

    /// Sends `number` to the child; nothing once it has been reaped.
    public func signal(_ number: Int32) {
        state.locked { if $0.termination == nil { kill(pid, number) } }
    }

    /// Waits at most `timeout` for the child to exit and its pipes to reach their end.
    /// - Returns: how it ended, or `nil` if it is still running.
    @discardableResult
    public func wait(within timeout: TimeInterval) -> Termination? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return state.locked { state in
            while state.termination == nil || state.openPipes > 0, state.condition.wait(until: deadline) {}
            return state.termination
        }
    }

    /// Waits at most `timeout` until the stdout captured so far satisfies `condition`.
    /// - Returns: whether it did.
    public func waitForOutput(within timeout: TimeInterval, until condition: (String) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return state.locked { state in
            while true {
                if condition(String(decoding: state.bytes[.output, default: []], as: UTF8.self)) { return true }
                // Nothing more can arrive once the pipe is closed.
                guard state.openPipes > 0 || state.termination == nil, state.condition.wait(until: deadline) else { return false }
            }
        }
    }

    /// Kills the child (SIGCONT first, in case it is stopped, then SIGKILL) and waits at most
    /// `timeout` for it to be reaped.
    public func terminate(within timeout: TimeInterval = 10) {
        guard isRunning else { return }
        signal(SIGCONT)
        signal(SIGKILL)
        let deadline = Date(timeIntervalSinceNow: timeout)
        state.locked { state in
            while state.termination == nil, state.condition.wait(until: deadline) {}
        }
    }
}

extension ChildProcess {
    /// A finished run of a short command.
    public struct Completed: Sendable {
        public let termination: Termination
        public let output: String
        public let errorOutput: String
    }

    /// Runs a short command to its end.
    /// - Throws: `Failure` if it cannot be started or is still running after `timeout` (it is killed then).
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String?] = [:],
        errorOutput: Destination = .captured, within timeout: TimeInterval = 60
    ) throws -> Completed {
        let child = try ChildProcess(executable, arguments, environment: environment, errorOutput: errorOutput)
        guard let termination = child.wait(within: timeout) else {
            child.terminate()
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        return Completed(termination: termination, output: child.output, errorOutput: child.errorOutput)
    }
}

extension ChildProcess {
    /// The two ends of a pipe, both close-on-exec.
    private struct Pipe {
        let readEnd: Int32
        let writeEnd: Int32

        init() throws {
            var ends: [Int32] = [-1, -1]
            // O_CLOEXEC at creation: setting it afterwards leaves a moment in which another thread's child inherits them.
            guard c_process_spawn_cloexec_pipe(&ends) == 0 else {
                throw Failure(description: "pipe2 failed: \(String(cString: strerror(errno)))")
            }
            readEnd = ends[0]
            writeEnd = ends[1]
        }

        func closeBoth() {
            close(readEnd)
            close(writeEnd)
        }
    }

    /// Adds the spawn action that sends `descriptor` to `destination`; returns the pipe it made, if any.
    private static func route(_ destination: Destination, to descriptor: Int32, _ actions: inout posix_spawn_file_actions_t) throws -> Pipe? {
        switch destination {
        case .captured:
            let pipe = try Pipe()
            // dup2 clears close-on-exec on the copy, so the child keeps it.
            posix_spawn_file_actions_adddup2(&actions, pipe.writeEnd, descriptor)
            return pipe
        case .discarded:
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            return nil
        case .intoOutput:
            posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, descriptor)
            return nil
        }
    }

    /// `NAME=value` lines: this process's environment with `changes` applied.
    private static func environment(changedBy changes: [String: String?]) -> [String] {
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in changes { merged[name] = value }
        return merged.map { "\($0.key)=\($0.value)" }
    }

    /// Waits for the child's exit on a thread of its own and reaps it.
    ///
    /// `waitid(WNOWAIT)` waits without reaping; the reaping `waitpid` then runs with the state locked,
    /// where `signal(_:)` checks it, so no signal is sent to a PID that has been freed for reuse.
    private static func reap(_ pid: pid_t, into state: State) {
        Thread.detachNewThread {
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
            state.locked { state in
                var status: Int32 = 0
                var reaped: pid_t
                repeat { reaped = waitpid(pid, &status, 0) } while reaped < 0 && errno == EINTR
                state.termination = reaped == pid ? Termination(waitStatus: status) : .unobserved(errno: errno)
                state.condition.broadcast()
            }
        }
    }

    /// Reads `descriptor` to its end on a thread of its own, then closes it.
    private static func drain(_ descriptor: Int32, into stream: State.Stream, of state: State) {
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(descriptor, &chunk, chunk.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                state.locked { state in
                    state.bytes[stream, default: []] += chunk[..<count]
                    state.condition.broadcast()
                }
            }
            close(descriptor)
            state.locked { state in
                state.openPipes -= 1
                state.condition.broadcast()
            }
        }
    }

    /// What the reaping and draining threads report, for the owner to wait on.
    // @unchecked: every field is read and written only inside `locked`, with `condition` held.
    private final class State: @unchecked Sendable {
        enum Stream { case output, errorOutput }

        let condition = NSCondition()
        var bytes: [Stream: [UInt8]] = [:]
        /// Pipes not yet read to their end.
        var openPipes: Int
        var termination: Termination?

        init(openPipes: Int) {
            self.openPipes = openPipes
        }

        func locked<Result>(_ body: (State) -> Result) -> Result {
            condition.lock()
            defer { condition.unlock() }
            return body(self)
        }
    }
}
