import HapticProtocol
import HapticSession
import Testing

@testable import FirmwareModel

/// PROTOCOL.md 2.5, unanswered PINGs: a PONG is longer than its PING, so a device answers PINGs
/// more slowly than the line brings them; the host keeps what it sent since the oldest
/// unanswered PING within half the device's receive buffer. (A stalled host that sent every PING
/// of a clock sync back to back overflowed the simulated ATmega328P's 128-byte ring.)
@Suite struct PingRoomTests {
    @Test func unansweredPingsFillAtMostHalfTheReceiveBuffer() throws {
        let link = try NoisyLineHostRuleTests.connectedLink()
        _ = NoisyLineHostRuleTests.framesSent(link)
        let rxBuffer = Int(try #require(link.engine.info).rxBuffer)
        var refused = 0
        for _ in 0..<40 {
            link.engine.ping(now: link.time) { if case .failure = $0 { refused += 1 } }
        }
        let sent = NoisyLineHostRuleTests.framesSent(link)
        let perPing = SessionEngine.pingFrameBytes
        #expect(sent.count == rxBuffer / 2 / perPing)
        #expect(sent.count * perPing <= rxBuffer / 2)
        #expect(refused == 40 - sent.count)
        #expect(!link.engine.pingFits)
        // The oldest PING's PONG arrives: there is room for exactly one more.
        let pong = link.device.receive(try sent[0].encoded())
        link.engine.receive(pong, now: link.time)
        #expect(link.engine.pingFits)
        link.engine.ping(now: link.time) { _ in }
        #expect(NoisyLineHostRuleTests.framesSent(link).count == 1)
        #expect(!link.engine.pingFits)
    }

    /// A PING the host gave up may still wait in the device's ring (a host that stalled gives up
    /// PINGs that had not yet reached the device): its bytes count until an answer to a later
    /// frame shows the device past it, or for a second.
    @Test func pingsGivenUpKeepTheirRoomUntilALaterAnswer() throws {
        let link = try NoisyLineHostRuleTests.connectedLink()
        _ = NoisyLineHostRuleTests.framesSent(link)
        for _ in 0..<40 { link.engine.ping(now: link.time) { _ in } }
        let sent = NoisyLineHostRuleTests.framesSent(link)
        link.engine.poll(now: link.time + 5)
        #expect(!link.engine.pingFits)
        // The device answers them at last, in order: the last PONG shows every one consumed.
        let pongs = try sent.map { try link.device.receive($0.encoded()) }
        link.engine.receive(try #require(pongs.last), now: link.time + 5.1)
        #expect(link.engine.pingFits)
        // Unanswered for a second after being given up: the room comes back without an answer.
        for _ in 0..<40 { link.engine.ping(now: link.time + 5.2) { _ in } }
        link.engine.poll(now: link.time + 6)
        #expect(!link.engine.pingFits)
        link.engine.poll(now: link.time + 7.1)
        #expect(link.engine.pingFits)
    }
}
