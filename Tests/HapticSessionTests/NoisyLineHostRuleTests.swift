import HapticProtocol
import HapticSession
import Testing

@testable import FirmwareModel

/// The host rules of PROTOCOL.md 2.19 for a noisy line, each on its own: the session engine and
/// the device model in virtual time (`VirtualTimeLink`), frames damaged by hand where the rule
/// needs one, so each assertion fails if its rule is taken out.
@Suite struct NoisyLineHostRuleTests {
    /// A link whose handshake is done, on the default timing (adaptive time-outs).
    static func connectedLink() throws -> VirtualTimeLink {
        let link = VirtualTimeLink(fault: .none, seed: 7, timing: SessionTiming())
        _ = try #require(link.run { HandshakeOperation(completion: $0) }).get()
        return link
    }

    /// A frame that decodes as damaged: a COBS block too short to hold a header and a CRC.
    static let damaged: [UInt8] = [0x03, 0x11, 0x22, 0x00]

    /// The frames the host put on the line since the last read, as the device sees them.
    static func framesSent(_ link: VirtualTimeLink) -> [Frame] {
        var decoder = FrameDecoder()
        let bytes = (try? link.wire.read(maxCount: 1 << 16, timeout: 0)) ?? []
        return decoder.push(bytes).compactMap { try? $0.get() }
    }

    @Test(arguments: [(damagedFrames: 0, copies: 1), (damagedFrames: 3, copies: 2), (damagedFrames: 40, copies: 3)])
    func commandsGoAgainInOneBurstOnADamagingLine(damagedFrames: Int, copies: Int) throws {
        let link = try Self.connectedLink()
        _ = Self.framesSent(link)
        for _ in 0..<damagedFrames { link.engine.receive(Self.damaged, now: link.time) }
        var outcome: Result<UInt32, SessionError>?
        link.engine.submit(CommandOperation(.stop(Message.Stop(brake: false))) { outcome = $0 }, now: link.time)
        let sent = Self.framesSent(link)
        // The same STOP frame (same sequence number) `copies` times back to back.
        #expect(sent.count == copies)
        #expect(Set(sent.map(\.sequence)).count == 1 && sent.allSatisfy { $0.messageType == MessageType.stop.rawValue })
        // The device answers each copy (the later ones from its duplicate memory): one outcome.
        for frame in sent { try link.wire.write(link.device.receive(frame.encoded()), timeout: 0) }
        for _ in 0..<5 where outcome == nil { link.tick() }
        #expect(try outcome?.get() != nil)
    }

    @Test func aDamagedFrameWhileAResponseIsDueSendsTheCommandAgainAtOnce() throws {
        let link = try Self.connectedLink()
        _ = Self.framesSent(link)
        let roundTrip = try #require(link.engine.smoothedRoundTrip)
        var outcome: Result<UInt32, SessionError>?
        link.engine.submit(CommandOperation(.stop(Message.Stop(brake: false))) { outcome = $0 }, now: link.time)
        let stop = try #require(Self.framesSent(link).first)
        let before = link.engine.retransmissions
        // Too early to be the answer (under half a round trip): nothing is resent.
        link.engine.receive(Self.damaged, now: link.time + roundTrip / 4)
        link.engine.poll(now: link.time + roundTrip / 4)
        #expect(link.engine.retransmissions == before)
        // The device's ACK, damaged on the way back, a round trip later: the STOP goes again in
        // the same poll, long before its time-out (at least 4 ms).
        var ack = link.device.receive(try stop.encoded())
        ack[ack.count / 2] ^= 0x40
        let arrival = link.time + roundTrip
        link.engine.receive(ack, now: arrival)
        link.engine.poll(now: arrival)
        #expect(link.engine.retransmissions == before + 1)
        let again = try #require(Self.framesSent(link).first)
        #expect(again.sequence == stop.sequence && again.messageType == stop.messageType)
        // The new attempt starts its own wait: a damaged frame too soon after it is not its answer.
        link.engine.receive(Self.damaged, now: arrival + roundTrip / 4)
        link.engine.poll(now: arrival + roundTrip / 4)
        #expect(link.engine.retransmissions == before + 1)
        #expect(outcome == nil)
    }

    @Test func helloRetriesBeforeTheDeviceAnswersDoNotShrinkUploads() throws {
        // A device that hears nothing for 100 ms (a board still booting): HELLO goes several times.
        let link = VirtualTimeLink(fault: .none, seed: 7, timing: SessionTiming())
        link.deafUntil = 0.1
        let info = try #require(link.run { HandshakeOperation(completion: $0) }).get()
        #expect(link.engine.retransmissions > 2)
        #expect(link.engine.uploadChunkSize == min(Message.Upload.maxDataCount, Int(info.rxBuffer) - 13))
        // A damaged frame is evidence of noise: smaller chunks from then on.
        link.engine.receive(Self.damaged, now: link.time)
        #expect(link.engine.uploadChunkSize == min(16, Int(info.rxBuffer) - 13))
    }

    @Test func aDamagedFrameNearAPlaysEndAsksForItsRecordAtOnce() {
        var tracker = PlayTracker()
        tracker.track(sequence: 9, slot: 0, start: 100, ticks: 50, due: 1.0)
        // Long before the end: a damaged frame is not taken for the end's notice.
        tracker.frameDamaged(now: 0.5, window: 0.02)
        #expect(tracker.queryDue(now: 0.5, timeout: 0.01) == nil)
        // Within the window: QUERY record 0 now rather than at 1.0 s.
        tracker.frameDamaged(now: 0.99, window: 0.02)
        #expect(tracker.queryDue(now: 0.99, timeout: 0.01)?.index == 0)
    }
}
