import Testing

@testable import WebSocketWire

@Suite("Addresses: parsing, CIDR blocks, trusted proxies and X-Forwarded-For")
struct TrustedProxiesTests {
    @Test(
        "addresses parse strictly and print canonically (RFC 5952; IPv4-mapped as IPv4)",
        arguments: [
            ("10.0.0.2", "10.0.0.2"), ("0.0.0.0", "0.0.0.0"), ("255.255.255.255", "255.255.255.255"),
            ("::1", "::1"), ("::", "::"), ("2001:DB8::1", "2001:db8::1"), ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
            ("2001:0db8:0000:0000:0000:0000:0002:0001", "2001:db8::2:1"), ("1:0:2:3:4:5:6:7", "1:0:2:3:4:5:6:7"),
            ("::ffff:10.0.0.2", "10.0.0.2"), ("::ffff:a00:2", "10.0.0.2"), ("fe80::1:2", "fe80::1:2"),
            ("1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"), ("::2:3:4:5:6:7:8", "0:2:3:4:5:6:7:8"),
            ("64:ff9b::192.0.2.33", "64:ff9b::c000:221"),
        ])
    func canonical(text: String, printed: String) {
        #expect(IPAddress(text)?.description == printed)
    }

    @Test(
        "what is not an address is refused",
        arguments: [
            "", "1.2.3", "1.2.3.4.5", "256.0.0.1", "01.2.3.4", "1.2.3.-4", "1..2.3", " 1.2.3.4", "1.2.3.4 ", "a.b.c.d",
            "١.2.3.4", ":::", "1::2::3", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8::", "12345::", "g::1", "::1%eth0",
            "[::1]", "1.2.3.4::", "::1.2.3", ":1::", "1:2:3:4:5:6:7", "::ffff:1.2.3.4.5", "ff:ff",
        ])
    func refused(text: String) {
        #expect(IPAddress(text) == nil, "\(text)")
    }

    @Test("CIDR blocks: /0, /32, /128, bare addresses, IPv4-mapped peers in IPv4 blocks")
    func blocks() throws {
        let everyIPv4 = try AddressRange(parsing: "0.0.0.0/0")
        #expect(everyIPv4.contains(IPAddress("203.0.113.9")!))
        #expect(everyIPv4.contains(IPAddress("::ffff:203.0.113.9")!))
        #expect(!everyIPv4.contains(IPAddress("2001:db8::1")!), "an IPv4 block holds no IPv6 address")
        let everything = try AddressRange(parsing: "::/0")
        #expect(everything.contains(IPAddress("2001:db8::1")!) && everything.contains(IPAddress("10.1.2.3")!))
        let one = try AddressRange(parsing: "127.0.0.1/32")
        #expect(one.contains(IPAddress("127.0.0.1")!) && !one.contains(IPAddress("127.0.0.2")!))
        #expect(try AddressRange(parsing: "127.0.0.1") == one, "a bare IPv4 address is its /32")
        let loopback6 = try AddressRange(parsing: "::1/128")
        #expect(loopback6.contains(IPAddress("::1")!) && !loopback6.contains(IPAddress("::2")!))
        #expect(try AddressRange(parsing: "::1") == loopback6)
        let ten = try AddressRange(parsing: "10.0.0.0/8")
        #expect(ten.contains(IPAddress("10.255.0.1")!) && !ten.contains(IPAddress("11.0.0.1")!))
        #expect(ten.description == "10.0.0.0/8")
        #expect(try AddressRange(parsing: "::ffff:10.0.0.0/104").contains(IPAddress("10.9.9.9")!))
        let odd = try AddressRange(parsing: "2001:db8:8000::/33")
        #expect(odd.contains(IPAddress("2001:db8:ffff::1")!) && !odd.contains(IPAddress("2001:db8:7fff::1")!))
        #expect(try AddressRange(parsing: "192.168.1.128/25").contains(IPAddress("192.168.1.200")!))
        #expect(try !AddressRange(parsing: "192.168.1.128/25").contains(IPAddress("192.168.1.127")!))
    }

    @Test(
        "a malformed block is refused with a message that names it",
        arguments: [
            ("10.0.0.0/33", "from 0 to 32"), ("::/129", "from 0 to 128"), ("10.0.0.0/", "from 0 to 32"),
            ("10.0.0.0/+8", "from 0 to 32"), ("10.0.0.0/08x", "from 0 to 32"),
            ("10.0.0.1/8", "did you mean 10.0.0.0/8"),
            ("2001:db8::1/32", "did you mean 2001:db8::/32"), ("localhost", "not an IP address"),
            ("10.0.0.0/8/8", "from 0 to 32"), ("", "not an IP address"),
        ])
    func malformedBlock(text: String, message: String) {
        #expect {
            _ = try AddressRange(parsing: text)
        } throws: { error in
            "\(error)".contains(message) && "\(error)".contains("\"\(text)\"")
        }
    }

    @Test("the list is comma-separated; an empty or malformed entry is refused, naming it")
    func list() throws {
        let trusted = try TrustedProxies(parsing: "127.0.0.1/32, 10.0.0.0/8,::1/128")
        #expect(trusted.ranges.map(\.description) == ["127.0.0.1/32", "10.0.0.0/8", "::1/128"])
        #expect(trusted.trusted("10.2.3.4") == IPAddress("10.2.3.4"))
        #expect(trusted.trusted("::1") != nil && trusted.trusted("127.0.0.2") == nil && trusted.trusted("junk") == nil)
        #expect(TrustedProxies().trusted("127.0.0.1") == nil && TrustedProxies().isEmpty)
        for bad in ["", "10.0.0.0/8,", ",10.0.0.0/8", "10.0.0.0/8,,::1", "10.0.0.0/8;::1"] {
            #expect(throws: AddressRangeError.self, "\(bad)") { try TrustedProxies(parsing: bad) }
        }
    }

    @Test("X-Forwarded-For: the right-most entry that is not a trusted proxy; ignored from an untrusted peer")
    func forwardedFor() throws {
        let trusted = try TrustedProxies(parsing: "10.0.0.0/8,::1")
        let proxy = IPAddress("10.0.0.1")!
        func client(_ peer: IPAddress, _ elements: [String]) -> String {
            trusted.client(of: peer, forwardedFor: elements).description
        }
        #expect(client(proxy, ["203.0.113.7"]) == "203.0.113.7")
        // A client that writes its own header cannot choose its address: the proxy appends the real one.
        #expect(client(proxy, ["1.1.1.1", "203.0.113.7"]) == "203.0.113.7")
        // Two trusted proxies in a row: the one right of the client is skipped.
        #expect(client(proxy, ["1.1.1.1", "203.0.113.7", "10.9.9.9"]) == "203.0.113.7")
        #expect(client(proxy, []) == "10.0.0.1", "no header: the proxy's own request (a health check)")
        #expect(client(proxy, ["10.5.5.5", "10.9.9.9"]) == "10.5.5.5", "every entry trusted: the left-most")
        #expect(client(proxy, ["203.0.113.7", "unknown"]) == "10.0.0.1", "garbage stops at the proxy that passed it")
        #expect(client(IPAddress("198.51.100.1")!, ["203.0.113.7"]) == "198.51.100.1", "untrusted peer: ignored")
        #expect(client(IPAddress("::1")!, ["2001:DB8::7"]) == "2001:db8::7")
        #expect(client(proxy, ["::ffff:203.0.113.7"]) == "203.0.113.7")
        #expect(client(proxy, ["203.0.113.7:4711"]) == "203.0.113.7")
        #expect(client(proxy, ["[2001:db8::7]:4711"]) == "2001:db8::7")
        #expect(client(proxy, ["[2001:db8::7]"]) == "2001:db8::7")
        for garbage in ["203.0.113.7:99999", "[2001:db8::7", "[1.2.3.4]", "[::1]x", "1.2.3.4:", "::1:80:"] {
            #expect(client(proxy, [garbage]) == "10.0.0.1", "\(garbage)")
        }
    }
}
