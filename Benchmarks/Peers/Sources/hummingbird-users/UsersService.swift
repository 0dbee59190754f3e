// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Hummingbird

/// `/users`: the user page, then every avatar with at most `concurrency` fetches in flight,
/// described (content type, size, SHA-256) in upstream order.
struct UsersService: Sendable {
    let api: UpstreamAPI
    /// Sort the answer's keys (`--sorted-keys true`). Off by default: ours writes its keys in one
    /// fixed order and sorts nothing at run time, so sorting here is work only the peer would do.
    let sortedKeys: Bool

    func response(limit: Int, concurrency: Int) async throws -> Response {
        let users = try await usersWithAvatars(limit: limit, concurrency: concurrency)
        let encoder = JSONEncoder()
        encoder.outputFormatting = sortedKeys ? [.sortedKeys, .withoutEscapingSlashes] : [.withoutEscapingSlashes]
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(users)))
        )
    }

    func usersWithAvatars(limit: Int, concurrency: Int) async throws -> [UserWithAvatar] {
        let users = Array(try await api.users(limit: limit).prefix(limit))
        return try await withThrowingTaskGroup(of: (Int, UserWithAvatar).self) { group in
            var results = [UserWithAvatar?](repeating: nil, count: users.count)
            var next = 0
            while next < min(concurrency, users.count) {
                let index = next
                group.addTask { (index, try await describe(users[index])) }
                next += 1
            }
            while let (index, user) = try await group.next() {
                results[index] = user
                if next < users.count {
                    let index = next
                    group.addTask { (index, try await describe(users[index])) }
                    next += 1
                }
            }
            return results.compactMap { $0 }
        }
    }

    private func describe(_ user: UpstreamUser) async throws -> UserWithAvatar {
        let (contentType, body) = try await api.avatar(url: user.avatarUrl)
        let digest = SHA256.hash(data: body.readableBytesView)
        return UserWithAvatar(
            id: user.id, login: user.login,
            avatar: .init(
                url: "/users/\(user.login)/avatar", upstreamUrl: user.avatarUrl, contentType: contentType,
                bytes: body.readableBytes, sha256: Self.hex(digest)))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func hex(_ digest: SHA256.Digest) -> String {
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
