// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

public enum PeakMemory {
    /// This process's peak resident set in KiB: VmHWM where /proc exists, else getrusage's ru_maxrss.
    public static func residentKB() -> Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let value = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) {
            return value
        }
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        #if canImport(Darwin)
        return Int(usage.ru_maxrss) / 1024
        #else
        return Int(usage.ru_maxrss)
        #endif
    }
}
