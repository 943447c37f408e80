// The micro:bit tests reach the simulated boards' code: built with the package trait "Emulator" only.
#if Emulator
    import Foundation
    import HapticTransport
    import QEMUEmulator
    import Synchronization
    import TestSupport
    import Testing

    /// The emulated micro:bit served in real time (not lockstep), as `haptic emulate --mcu cortex-m`
    /// serves it, on a host that keeps taking the CPU from QEMU: the board's clock must keep going.
    @Suite struct RealTimeMicrobitTests {
        /// For 10 s QEMU is stopped (SIGSTOP) for 0.3 to 2 ms out of every 2 to 3.5 ms, as a loaded
        /// machine stops it, so the tick interrupt often runs a tick or more late. Before tick.c
        /// counted ticks from its grid, one such interrupt sooner or later moved compare 0 to a count
        /// already passed, and the next match came only after the 32-bit wrap, 268 s on: the clock
        /// stopped (in 5 runs of 5, within 6 s). Bounds that hold on a loaded machine: at most one tick
        /// per millisecond of the board's life, a quarter of them at least, and some in the second
        /// after the stalls (a stopped clock gives none).
        @Test func theClockKeepsGoingWhenTheHostStallsQEMU() throws {
            let firmware = MicrobitSession.firmware
            let started = Date()
            let board = try QEMUBoard(firmware: firmware)
            defer { board.stop() }
            let pty = try PseudoTerminal()
            defer { pty.close() }
            nonisolated(unsafe) let server = QEMUBoardServer(board: board, link: pty.master)
            nonisolated(unsafe) let served = board
            let ticks = Atomic<Int>(0)
            let serving = ServingThread { goOn in
                try server.serve {
                    ticks.store(served.steps.count, ordering: .relaxed)
                    return goOn()
                }
            }

            var random = SeededGenerator(seed: 28)
            var stalls = 0
            while Date().timeIntervalSince(started) < 10 && serving.isServing {
                kill(board.processIdentifier, SIGSTOP)
                Thread.sleep(forTimeInterval: 0.0003 + 0.0017 * random.unit())
                kill(board.processIdentifier, SIGCONT)
                stalls += 1
                Thread.sleep(forTimeInterval: 0.0015)
            }
            let afterStalls = ticks.load(ordering: .relaxed)
            Thread.sleep(forTimeInterval: 1)
            let aSecondLater = ticks.load(ordering: .relaxed)
            serving.stop()
            let lifetime = Date().timeIntervalSince(started)

            #expect(board.isRunning, "QEMU ended: \(board.log.suffix(300))")
            #expect(aSecondLater - afterStalls >= 100, "\(aSecondLater - afterStalls) ticks in the second after \(stalls) stalls")
            #expect(board.steps.count >= Int(lifetime * 250), "\(board.steps.count) ticks in \(lifetime) s")
            #expect(board.steps.count <= Int(lifetime * 1000), "\(board.steps.count) ticks in \(lifetime) s: more than the clock allows")
            print("REPORT micro:bit served in real time through \(stalls) stalls of QEMU: \(board.steps.count) ticks in \(lifetime) s")
        }
    }
#endif
