// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

/// ArgumentParser reads a token such as `-1` after an option as a short flag
/// (swift-argument-parser issue 31), so `serve --port -1` said "Missing value for '--port'"
/// while `--port=-1` named the allowed range. Joining such a pair into `--port=-1` hands
/// the number to the option, whose own check then says what is wrong with it.
enum NegativeOptionValues {
    static func joined(_ arguments: [String]) -> [String] {
        var joined: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                joined += arguments[index...]
                break
            }
            let next = index + 1
            if argument.hasPrefix("--"), !argument.contains("="), next < arguments.endIndex, isNegativeNumber(arguments[next]) {
                joined.append(argument + "=" + arguments[next])
                index += 2
            } else {
                joined.append(argument)
                index += 1
            }
        }
        return joined
    }

    /// `-1`, `-0.5`, `-.5`: a minus sign, then digits with at most one point.
    static func isNegativeNumber(_ text: String) -> Bool {
        let digits = text.dropFirst()
        return text.first == "-" && digits.contains(where: \.isASCIIDigit)
            && digits.allSatisfy { $0.isASCIIDigit || $0 == "." } && digits.filter { $0 == "." }.count <= 1
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
