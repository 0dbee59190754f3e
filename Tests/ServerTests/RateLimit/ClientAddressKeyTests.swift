// StreamService, Copyright 2026 the StreamService project authors.
// Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0

import NetCore
import XCTest
@testable import Server

/// `ClientAddressKey`: IPv6 clients by their prefix, IPv4 by their address.
final class ClientAddressKeyTests: XCTestCase {
    private func key(_ text: String, _ length: Int = 64) -> String {
        ClientAddressKey(ipv6PrefixLength: length).text(IPAddress(text)!)
    }

    func testIPv6AddressesAreKeyedByTheirPrefix() {
        XCTAssertEqual(key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64")
        XCTAssertEqual(key("2001:db8:1:2::1"), key("2001:db8:1:2::ffff"))
        XCTAssertNotEqual(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"))
        XCTAssertEqual(key("2001:db8:1:2::1", 48), "2001:db8:1::/48")
        XCTAssertEqual(key("2001:db8:1:2::1:2", 112), "2001:db8:1:2::1:0/112")
        XCTAssertEqual(key("2001:db8::1", 128), "2001:db8::1")
        XCTAssertEqual(key("ffff::1", 1), "8000::/1")
    }

    func testIPv4AddressesAreKeyedWhole() {
        XCTAssertEqual(key("192.0.2.77"), "192.0.2.77")
        XCTAssertEqual(key("192.0.2.77", 1), "192.0.2.77")
        XCTAssertEqual(ClientAddressKey.standard.key(IPAddress("192.0.2.77")!), IPAddress("192.0.2.77")!)
    }
}
