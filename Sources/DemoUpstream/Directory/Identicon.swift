// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Domain

/// A GitHub-style identicon: a 5×5 left-right symmetric grid of coloured cells,
/// derived only from the login, so the same login always yields the same PNG bytes.
public struct Identicon: Sendable, Equatable {
    public static let size = 64
    static let cells = 5
    static let cellPixels = 12
    static let margin = (size - cells * cellPixels) / 2

    public let login: String
    let filled: [[Bool]]
    let colour: (red: UInt8, green: UInt8, blue: UInt8)

    public init(login: String) {
        self.login = login
        var hash = StableHash(login)
        colour = (UInt8(64 + hash.next() % 160), UInt8(64 + hash.next() % 160), UInt8(64 + hash.next() % 160))
        var grid = [[Bool]](repeating: [Bool](repeating: false, count: Self.cells), count: Self.cells)
        for row in 0..<Self.cells {
            for column in 0...(Self.cells / 2) {
                let on = hash.next() % 2 == 0
                grid[row][column] = on
                grid[row][Self.cells - 1 - column] = on
            }
        }
        filled = grid
    }

    public static func == (lhs: Identicon, rhs: Identicon) -> Bool {
        lhs.login == rhs.login
    }

    /// RGB bytes, 64 rows of 64 pixels; the background is a light grey, as on GitHub.
    public func pixels() -> [UInt8] {
        var rgb = [UInt8]()
        rgb.reserveCapacity(Self.size * Self.size * 3)
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                if isFilled(x: x, y: y) {
                    rgb.append(contentsOf: [colour.red, colour.green, colour.blue])
                } else {
                    rgb.append(contentsOf: [240, 240, 240])
                }
            }
        }
        return rgb
    }

    public func png() -> [UInt8] {
        // The pixel count is fixed by construction, and compressing a 12 KiB buffer into
        // a buffer sized by compressBound cannot fail.
        (try? PNGEncoder.encode(width: Self.size, height: Self.size, rgb: pixels())) ?? []
    }

    private func isFilled(x: Int, y: Int) -> Bool {
        let gridX = x - Self.margin, gridY = y - Self.margin
        guard gridX >= 0, gridY >= 0 else { return false }
        let column = gridX / Self.cellPixels, row = gridY / Self.cellPixels
        guard column < Self.cells, row < Self.cells else { return false }
        return filled[row][column]
    }
}
