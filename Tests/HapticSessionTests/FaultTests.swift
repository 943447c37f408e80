import DeviceTestSupport
import Foundation
import HapticProtocol
import HapticSession
import HapticTransport
import Logging
import TestSupport
import Testing

@testable import FirmwareModel

/// Small valid programs, all different: a level, a ramp, a pulse, END at different times.
func smallPrograms(count: Int, seed: UInt64) -> [[UInt8]] {
    var random = SeededGenerator(seed: seed)
    return (0..<count).map { _ in
        let level = UInt8.random(in: 1...255, using: &random)
        let target = UInt8.random(in: 0...255, using: &random)
        let ramp = UInt32.random(in: 1...40, using: &random)
        let pulse = UInt8.random(in: 1...255, using: &random)
        let end = UInt32.random(in: 1...30, using: &random)
        return Program(instructions: [
            .setA(level), .setS(UInt8.random(in: 0...255, using: &random)),
            .rampA(to: target, duration: ramp, delay: 2), .pulse(amplitude: pulse, sharpness: 128, delay: 3),
            .end(delay: ramp + end),
        ]).bytes
    }
}

@Suite struct FaultTests {
    /// Command time-outs in virtual time: the in-process device answers within two ticks.
    static let timing = SessionTiming(
        commandTimeout: 0.005, handshakeTimeout: 30, handshakeInterval: 0.005,
        pingTimeout: 0.005, streamQueryInterval: 0.005)

    @Test func tenThousandUploadsOverALossyLineAreIntactOrReportedFailed() throws {
        let fault = FaultProfile(drop: 0.01, corrupt: 0.01)
        let link = VirtualTimeLink(fault: fault, seed: 2026, timing: Self.timing)
        let handshake: Result<Message.Info, SessionError>? = link.run { HandshakeOperation(completion: $0) }
        let info = try #require(try handshake?.get())
        let programs = smallPrograms(count: 97, seed: 7)
        var succeeded = 0, failed = 0, verifiedPlays = 0
        for index in 0..<10_000 {
            let program = programs[index % programs.count]
            let slot = UInt8(index % Int(info.slotCount))
            let result: Result<UInt32, SessionError>? = link.run { UploadOperation(slot: slot, program: program, completion: $0) }
            let outcome = try #require(result, "upload \(index) never completed")
            let device = link.device
            switch outcome {
            case .success(let ticks):
                succeeded += 1
                // Verified intact: ready, and the slot's bytes (hence its CRC) are the program's.
                #expect(ticks == Program.totalTicks(ofProgram: program))
                #expect(device.slotIsReady(Int(slot)))
                #expect(device.slotProgram(slot) == program)
                #expect(CRC16.checksum(device.slotProgram(slot)) == CRC16.checksum(program))
            case .failure(let error):
                failed += 1
                #expect(!error.isFatal, "\(error)")
            }
            // Whatever happened, no slot is ready with bytes the host did not send for it.
            for s in 0..<Int(info.slotCount) where device.slotIsReady(s) {
                #expect(programs.contains(device.slotProgram(UInt8(s))))
            }
            // Now and then play what the slot holds, through the lossy line, and compare every sample.
            if index % 500 == 0, case .success = outcome {
                link.clearSamples()
                let play: Result<UInt32, SessionError>? = link.run { CommandOperation(.play(Message.Play(slot: slot)), completion: $0) }
                if case .success(let start)? = play {
                    let expected = offlineOutput(program, configuration: .default)
                    for _ in 0..<(expected.count + 25) { link.tick() }
                    let offset = Int(start &- link.firstSampleTick)
                    #expect(Array(link.samples[offset..<(offset + expected.count)]) == expected)
                    verifiedPlays += 1
                }
            }
        }
        let counts = link.host.faultCounts
        let back = link.wire.faultCounts
        print(
            "fault test: \(succeeded) uploads intact, \(failed) reported failed, \(verifiedPlays) plays verified; host->device \(counts.bytes) bytes (\(counts.dropped) dropped, \(counts.corrupted) corrupted), device->host \(back.bytes) bytes (\(back.dropped) dropped, \(back.corrupted) corrupted), \(link.engine.retransmissions) retransmissions, \(Int(link.time)) s virtual"
        )
        #expect(succeeded + failed == 10_000)
        #expect(succeeded > 8_500)
        #expect(counts.dropped > 0 && counts.corrupted > 0 && back.dropped > 0 && back.corrupted > 0)
    }

    @Test func handshakeRetriesUntilTheDeviceListens() throws {
        let timing = SessionTiming(handshakeTimeout: 3, handshakeInterval: 0.2)
        let link = VirtualTimeLink(fault: .none, seed: 1, timing: timing)
        link.deafUntil = 1.1
        let handshake: Result<Message.Info, SessionError>? = link.run { HandshakeOperation(completion: $0) }
        let info = try #require(try handshake?.get())
        #expect(info.version == .current)
        // HELLO after 10 ms, then 1.25 times later each time up to every 200 ms (2.19): the first
        // one heard is the first sent after 1.1 s, at about 1.24 s. The device's RESET notice at
        // boot sent the first HELLO again at once (a board reset by the port's opening listens from
        // then on), an extra send that does not shorten the handshake's time-out.
        #expect(link.time > 1.2 && link.time < 1.3, "\(link.time)")
        #expect((15...19).contains(link.engine.retransmissions), "\(link.engine.retransmissions)")
        // A device that never answers: a clear error after the handshake time-out.
        let silent = VirtualTimeLink(fault: .none, seed: 1, timing: timing)
        silent.deafUntil = .infinity
        let none: Result<Message.Info, SessionError>? = silent.run { HandshakeOperation(completion: $0) }
        let attempts: Int? = none.flatMap { if case .failure(.notResponding(command: "HELLO", let attempts)) = $0 { attempts } else { nil } }
        #expect(attempts.map { $0 >= 15 } == true, "\(String(describing: none))")
        #expect(silent.time >= 3 && silent.time < 3.1)
    }

    @Test func aResetWhoseNoticeWasLostIsFoundAtTheNextPlay() throws {
        let link = VirtualTimeLink(fault: .none, seed: 1, timing: Self.timing)
        let handshake: Result<Message.Info, SessionError>? = link.run { HandshakeOperation(completion: $0) }
        _ = try #require(try handshake?.get())
        let program = smallPrograms(count: 1, seed: 5)[0]
        let upload: Result<UInt32, SessionError>? = link.run { UploadOperation(slot: 1, program: program, completion: $0) }
        _ = try #require(try upload?.get())
        link.rebootDevice(noticeLost: true)
        // The PLAY is refused (NOT_COMMITTED) for a slot the host believes committed: the session
        // re-handshakes, uploads the slot again and plays.
        let play: Result<UInt32, SessionError>? = link.run { CommandOperation(.play(Message.Play(slot: 1)), completion: $0) }
        #expect((try? play?.get()) != nil)
        #expect(link.events.contains(.recovered(slots: 1)))
        // Only the boot's RESET ever arrived.
        #expect(link.events.filter { if case .reset = $0 { true } else { false } }.count == 1)
        #expect(link.device.slotProgram(1) == program)
    }

    @Test func aResetDuringAnUploadIsRecoveredAndTheUploadCompletes() throws {
        let link = VirtualTimeLink(fault: .none, seed: 1, timing: Self.timing)
        let handshake: Result<Message.Info, SessionError>? = link.run { HandshakeOperation(completion: $0) }
        _ = try #require(try handshake?.get())
        let programs = smallPrograms(count: 3, seed: 3)
        for slot in 0..<2 {
            let result: Result<UInt32, SessionError>? = link.run { UploadOperation(slot: UInt8(slot), program: programs[slot], completion: $0) }
            _ = try #require(try result?.get())
        }
        // Start a third upload, reboot the device after its first command went out.
        var outcome: Result<UInt32, SessionError>?
        link.engine.submit(UploadOperation(slot: 2, program: programs[2]) { outcome = $0 }, now: link.time)
        link.rebootDevice()
        for _ in 0..<2_000 where outcome == nil { link.tick() }
        for _ in 0..<100 { link.tick() }
        #expect(try outcome?.get() == Program.totalTicks(ofProgram: programs[2]))
        #expect(link.events.contains(.reset(reason: .unknown, bootCount: 1)))
        #expect(link.events.contains(.recovered(slots: 2)))
        for slot in 0..<3 {
            #expect(link.device.slotProgram(UInt8(slot)) == programs[slot])
            #expect(link.device.slotIsReady(slot))
        }
    }
}

extension Program {
    /// The total ticks a program's header declares.
    static func totalTicks(ofProgram bytes: [UInt8]) -> UInt32 {
        (try? ProgramHeader(parsing: bytes))?.totalTicks ?? 0
    }
}
