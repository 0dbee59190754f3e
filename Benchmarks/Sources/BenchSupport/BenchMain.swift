// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Foundation

/// The command line every `*-bench` executable shares:
///   `<bench> [--only id,id…] [--skip id,id…] [--timeout seconds]` runs each workload in a child process
///   and prints one RESULT line per workload; `<bench> --child id` is that child.
public enum BenchMain {
    public static func run(library: String, workloads: [Workload], arguments: [String] = CommandLine.arguments) {
        let options = Options(arguments)
        if let child = options.child {
            guard let workload = workloads.first(where: { $0.id == child }) else {
                FileHandle.standardError.write(Data("unknown workload \(child)\n".utf8))
                exit(2)
            }
            emit(WorkloadTimer().measure(workload, library: library).line)
            return
        }
        let runner = ChildProcess(timeout: .seconds(options.timeoutSeconds))
        for workload in workloads where options.selects(workload.id) {
            emit(runner.run(workload, library: library).line)
        }
    }

    /// Unbuffered, so a parent (or `tee`) sees each result as soon as it exists.
    static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    struct Options {
        var child: String?
        var only: Set<String>?
        var skip: Set<String> = []
        var timeoutSeconds = 180

        init(_ arguments: [String]) {
            var iterator = arguments.dropFirst().makeIterator()
            while let argument = iterator.next() {
                switch argument {
                case "--child": child = iterator.next()
                case "--only": only = Set((iterator.next() ?? "").split(separator: ",").map(String.init))
                case "--skip": skip = Set((iterator.next() ?? "").split(separator: ",").map(String.init))
                case "--timeout": timeoutSeconds = iterator.next().flatMap { Int($0) } ?? timeoutSeconds
                default:
                    FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
                    exit(2)
                }
            }
        }

        func selects(_ id: String) -> Bool {
            (only?.contains(id) ?? true) && !skip.contains(id)
        }
    }
}
