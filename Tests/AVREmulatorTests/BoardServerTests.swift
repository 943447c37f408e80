import HapticTransport
import AVREmulator
import Foundation
import SerialBridge
import Synchronization
import TestSupport
import Testing

/// The simulated board served on a pseudo-terminal, as `haptic emulate --mcu atmega328p` does:
/// a client opens the slave end like a serial port.
@Suite struct BoardServerTests {
    @Test func aClientOnThePseudoTerminalTalksToTheFirmware() throws {
        let path = try AVRFirmwareBuild(application: .selftest).build(repositoryRoot: Repository.root.path)
        let board = try AVRBoard(firmware: path)
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let client = try openTransport(path: pty.slavePath, configuration: SerialConfiguration(baudRate: 500_000))
        defer { client.close() }

        let received = Mutex<[UInt8]>([])
        let reader = Thread {
            let deadline = Date().addingTimeInterval(5)
            var sent = false
            while Date() < deadline {
                let bytes = (try? client.read(maxCount: 256, timeout: 0.05)) ?? []
                let total = received.withLock { $0 += bytes; return $0.count }
                if !sent && total >= 11 {
                    try? client.write(Array("ping".utf8), timeout: 1)
                    sent = true
                }
                if total >= 15 { return }
            }
        }
        reader.start()
        let server = AVRBoardServer(board: board, link: pty.master, realTime: true)
        let started = Date()
        try server.serve { received.withLock { $0.count } < 15 && Date().timeIntervalSince(started) < 5 }

        #expect(received.withLock { String(decoding: $0, as: UTF8.self) } == "HBSELFTEST\nping")
        #expect(server.bytesToBoard == 4)
        // Real time: the simulated clock kept pace with the wall clock (within a few ticks).
        let simulated = Double(board.cycle) / Double(board.frequency)
        #expect(abs(simulated - Date().timeIntervalSince(started)) < 0.1)
    }
}
