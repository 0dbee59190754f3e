import Foundation

/// Runs a short command with `posix_spawn` and returns its standard output.
///
/// Why not `Foundation.Process`: its `run()` scans `/proc/self/fd` and reads 256 bytes past the
/// end of the directory buffer (`findMaximumOpenFromProcSelfFD`: a heap-buffer-overflow under
/// ASan). With the hundreds of sockets a test process holds, that read sometimes crossed into an
/// unmapped page: the suite died with SIGSEGV in `Process.run()` about once in 40 runs, from
/// `redis-cli` calls polled in `waitUntil`.
enum SpawnedCommand {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func output(_ executable: String, _ arguments: [String]) throws -> String {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Failure(description: "pipe failed: errno \(errno)") }
        // Close-on-exec, so a command another thread starts meanwhile does not hold the write end open.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            throw Failure(description: "could not start \(executable): errno \(spawned)")
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output.append(contentsOf: chunk[..<count])
        }
        close(ends[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return String(decoding: output, as: UTF8.self)
    }
}
