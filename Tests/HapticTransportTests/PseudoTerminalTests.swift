import Foundation
import HapticProtocol
import HapticTransport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Real kernel pseudo-terminals: the line discipline sits between the two ends, so these tests
/// check the termios setup that real serial ports get too.
@Suite(.serialized) struct PseudoTerminalTests {
    @Test func rawModeIsBinaryCleanBothWays() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let client = try openTransport(path: pty.slavePath)
        defer { client.close() }
        #expect(client is PosixTTY)

        // Every byte value, including 0x00, XON/XOFF (0x11/0x13), CR/LF, ^C, ^D, DEL.
        let all = (0...255).map(UInt8.init)
        try pty.master.write(all + all.reversed(), timeout: 1)
        #expect(try readExactly(client, count: 512) == all + all.reversed())
        try client.write(all, timeout: 1)
        #expect(try readExactly(pty.master, count: 256) == all)

        // The specific translations raw mode must disable, byte by byte.
        for byte: UInt8 in [0x0D, 0x0A, 0x11, 0x13, 0x03, 0x04, 0x7F, 0x00] {
            try client.write([byte], timeout: 1)
            #expect(try readExactly(pty.master, count: 1, timeout: 1) == [byte])
            try pty.master.write([byte], timeout: 1)
            #expect(try readExactly(client, count: 1, timeout: 1) == [byte])
        }
        // Nothing extra arrived (ONLCR would have added a CR, ECHO would echo).
        #expect(try client.read(maxCount: 16, timeout: 0.05) == [])
        #expect(try pty.master.read(maxCount: 16, timeout: 0.05) == [])

        // And the flags themselves, on both ends.
        for transport in [pty.master, client as! PosixTTY] {
            let settings = try transport.withDescriptor { fd in
                var settings = termios()
                _ = tcgetattr(fd, &settings)
                return settings
            }
            #expect(settings.c_iflag & tcflag_t(ICRNL | IXON | IXOFF | INLCR | IGNCR | ISTRIP) == 0)
            #expect(settings.c_oflag & tcflag_t(OPOST) == 0)
            #expect(settings.c_lflag & tcflag_t(ICANON | ECHO | ISIG | IEXTEN) == 0)
            #expect(settings.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
            #expect(settings.c_cflag & tcflag_t(PARENB | CSTOPB) == 0)
        }
    }

    @Test func framesCrossThePTY() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let client = try openTransport(path: pty.slavePath, configuration: SerialConfiguration(baudRate: 1_000_000))
        defer { client.close() }
        var rng = SeededGenerator(seed: 7)
        let frames = (0..<200).map { index in
            Frame(
                messageType: UInt8(index % 256), sequence: UInt8(index % 256),
                payload: (0..<Int.random(in: 0...Frame.maxPayloadCount, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
        }
        let sender = Background { () -> TransportError? in
            do {
                for frame in frames { try client.write(try! frame.encoded(), timeout: 2) }
                return nil
            } catch { return error as? TransportError }
        }
        var decoder = FrameDecoder()
        var received: [Frame] = []
        let deadline = monotonicSeconds() + 10
        while received.count < frames.count, monotonicSeconds() < deadline {
            received += try decoder.push(pty.master.read(maxCount: 4096, timeout: 0.5)).map { try $0.get() }
        }
        #expect(sender.wait(timeout: 5) == .some(nil))
        #expect(received == frames)
        #expect(decoder.statistics.errors == 0)
    }

    @Test func backendChoiceFollowsSymlinksToPTYs() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        #expect(try transportBackend(forPath: pty.slavePath) == .termios)
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("hb-pty-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pty.slavePath)
        defer { try? FileManager.default.removeItem(atPath: link) }
        #expect(try transportBackend(forPath: link) == .termios)
        let client = try openTransport(path: link)
        defer { client.close() }
        try client.write([0x42], timeout: 1)
        #expect(try readExactly(pty.master, count: 1) == [0x42])
        #expect(errorKind { _ = try transportBackend(forPath: "/dev/no-such-port-hb") } == .notFound)
    }

    @Test func closingTheMasterDisconnectsABlockedReader() throws {
        let pty = try PseudoTerminal()
        let client = try openTransport(path: pty.slavePath)
        defer { client.close() }
        let reader = Background { () -> (TransportError.Kind?, Double) in
            let start = monotonicSeconds()
            let kind = errorKind { _ = try client.read(maxCount: 16, timeout: 5) }
            return (kind, monotonicSeconds() - start)
        }
        Thread.sleep(forTimeInterval: 0.1)
        pty.close()
        let outcome = try #require(reader.wait(timeout: 6))
        #expect(outcome.0 == .disconnected)
        #expect(outcome.1 < 1.0, "took \(outcome.1) s of a 5 s timeout")
        // Writes fail the same way, at once.
        #expect(errorKind { try client.write([1, 2, 3], timeout: 1) } == .disconnected)
    }

    @Test func masterDrainsThenSeesTheClientLeaveAndCanServeTheNextOne() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        // No client yet: an idle read times out instead of failing.
        #expect(try pty.master.read(maxCount: 8, timeout: 0.05) == [])
        let first = try openTransport(path: pty.slavePath)
        try first.write(Array("bye".utf8), timeout: 1)
        first.close()
        #expect(try readExactly(pty.master, count: 3) == Array("bye".utf8))
        #expect(errorKind { _ = try pty.master.read(maxCount: 8, timeout: 1) } == .disconnected)

        let second = try openTransport(path: pty.slavePath)
        defer { second.close() }
        try pty.master.write([0x55, 0x00], timeout: 1)
        #expect(try readExactly(second, count: 2) == [0x55, 0x00])
    }

    @Test func closeStopsABlockedReadOfTheSameTransport() throws {
        let pty = try PseudoTerminal()
        let reader = Background { () -> (TransportError.Kind?, Double) in
            let start = monotonicSeconds()
            let kind = errorKind { _ = try pty.master.read(maxCount: 16, timeout: 5) }
            return (kind, monotonicSeconds() - start)
        }
        Thread.sleep(forTimeInterval: 0.1)
        pty.close()
        let outcome = try #require(reader.wait(timeout: 6))
        #expect(outcome.0 == .closed)
        #expect(outcome.1 < 0.5)
        #expect(errorKind { try pty.master.write([1], timeout: 1) } == .closed)
        pty.close()  // twice is harmless
    }

    @Test func readAndWriteTimeoutsAreHonoured() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let client = try openTransport(path: pty.slavePath)
        defer { client.close() }
        var bytes: [UInt8] = [0]
        let idle = elapsed { bytes = (try? client.read(maxCount: 8, timeout: 0.2)) ?? [0] }
        #expect(bytes == [])
        #expect(idle >= 0.19 && idle < 1.0, "\(idle) s")  // the time-out, not a hang (room for a loaded machine)
        // A zero time-out polls: it returns without waiting for data (well under the 0.2 s wait above,
        // with room for a loaded machine).
        #expect(elapsed { _ = try? client.read(maxCount: 8, timeout: 0) } < 0.15)

        // Nobody reads the master: the kernel buffers fill and the write must give up in time.
        var kind: TransportError.Kind?
        let blocked = elapsed { kind = errorKind { try client.write([UInt8](repeating: 0x5A, count: 1 << 22), timeout: 0.3) } }
        #expect(kind == .timedOut)
        #expect(blocked >= 0.29 && blocked < 1.0, "\(blocked) s")
    }

    @Test func secondOpenOfTheSamePortIsBusy() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let first = try openTransport(path: pty.slavePath)
        defer { first.close() }
        do {
            let second = try openTransport(path: pty.slavePath)
            second.close()
            Issue.record("second open succeeded")
        } catch {
            #expect(error.kind == .busy)
            #expect(error.hint?.contains("another program") == true)
        }
    }

    @Test func noDescriptorLeaksAcrossOpenCloseCycles() throws {
        for _ in 0..<25 {
            let pty = try PseudoTerminal()
            let path = pty.slavePath
            let client = try openTransport(path: path)
            #expect(descriptors(ofPTY: path) == 2)
            #expect(errorKind { _ = try openTransport(path: path) } == .busy)  // the failure path closes its fd too
            #expect(descriptors(ofPTY: path) == 2)
            try client.write([1, 2, 3], timeout: 1)
            _ = try readExactly(pty.master, count: 3)
            client.close()
            #expect(descriptors(ofPTY: path) == 1)
            pty.close()
            #expect(descriptors(ofPTY: path) == 0)
        }
        // Transports dropped without close() release their descriptors too.
        var path = ""
        do {
            let pty = try PseudoTerminal()
            path = pty.slavePath
            _ = try openTransport(path: path)
        }
        #expect(descriptors(ofPTY: path) == 0)
    }
}
