// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import Foundation
    import HapticTransport
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
                    let total = received.withLock {
                        $0 += bytes
                        return $0.count
                    }
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

        /// An Arduino resets when a host opens its port (DTR) and waits in its bootloader before the
        /// firmware runs: the server reproduces it, and the host's handshake survives it, its first
        /// HELLO lost in the bootloader and the next sent as soon as the board's RESET notice arrives.
        @Test func openingThePortResetsTheBoardAndTheHandshakeWaitsForItsBoot() async throws {
            let bootloader = AVRBoardServer.unoBootloaderSeconds / 2
            let served = try ServedBoard(bootloaderSeconds: bootloader)
            let (board, server) = (served.board, served.server)
            served.start()
            defer { served.stop() }
            try await Task.sleep(nanoseconds: 200_000_000)  // the board has booted, no client yet
            let opened = Date()
            let device = try await HapticDevice.open(path: served.pty.slavePath)
            let handshake = Date().timeIntervalSince(opened)
            let info = await device.info
            let ping = try await device.ping()
            await device.close()
            served.stop()

            #expect(info?.profileNameString == "lra-170hz-10mm")
            #expect(ping.roundTrip < 0.1)
            #expect(server.opens == 1)
            #expect(board.resets == 1, "the open reset the board")
            #expect(board.uartStatistics.dropped > 0, "the first HELLO went to the bootloader")
            // The handshake took at least the bootloader's wait (and, on an idle machine, little more
            // than the board's boot: about 20 ms; a loaded one slows the real-time server down).
            #expect(handshake >= bootloader, "\(handshake) s")
            print(
                "REPORT DTR reset: the board reset when the port opened, \(board.uartStatistics.dropped) bytes lost in its \(bootloader) s bootloader, handshake done after \(String(format: "%.3f", handshake)) s"
            )
        }
    }
#endif
