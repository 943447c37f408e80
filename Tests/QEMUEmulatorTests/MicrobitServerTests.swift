// The micro:bit tests reach the simulated boards' code: built with the package trait "Emulator" only.
#if Emulator
    import Foundation
    import HapticConformance
    import HapticTransport
    import QEMUEmulator
    import TestSupport
    import Testing

    /// The emulated micro:bit served in real time on a pseudo-terminal, as `haptic emulate --mcu
    /// cortex-m` serves it: the conformance kit (every vector and live check over the port) passes,
    /// and the session's trace, replayed through the model from the board's step records, matches.
    @Suite struct MicrobitServerTests {
        @Test func theServedBoardConformsAndItsTraceMatchesTheModel() throws {
            let board = try QEMUBoard(firmware: MicrobitSession.firmware)
            defer { board.stop() }
            let pty = try PseudoTerminal()
            defer { pty.close() }
            nonisolated(unsafe) let server = QEMUBoardServer(board: board, link: pty.master)
            let serving = ServingThread { goOn in try server.serve(while: goOn) }
            let port = try openTransport(path: pty.slavePath)
            let run = Conformance.run(on: port, options: .init(vectorsDirectory: Repository.path("firmware-protocol/vectors/device")))
            port.close()
            serving.stop()

            let failed = run.results.filter { $0.status == .failed }.map { "\($0.kind.rawValue) \($0.name): \($0.detail)" }
            #expect(run.passed, "\(failed)")
            #expect(run.results.filter { $0.kind == .live }.allSatisfy { $0.status == .passed })
            // Only the stage-fault vector is skipped: no host can raise a stage fault over the port.
            #expect(run.results.filter { $0.status == .skipped }.map(\.name) == ["stage_faults"])
            let trace = try #require(
                QEMUTrace.make(source: QEMUBoard.machine, input: board.inputLog, output: board.outputLog, steps: board.steps))
            #expect(trace.sampleMismatches.isEmpty, "steps \(trace.sampleMismatches.prefix(5))")
            #expect(trace.frameMismatch == nil)
            print(
                "REPORT conformance on the emulated micro:bit over a pty: \(run.results.filter { $0.status == .passed }.count) checks passed; its trace of \(trace.steps) ticks equals the model's replay"
            )
        }
    }
#endif
