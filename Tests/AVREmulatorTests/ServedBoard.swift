// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import HapticTransport
    import TestSupport

    /// The default firmware on the simulated board, served in real time on a pseudo-terminal from a
    /// thread of its own (as `haptic emulate --mcu atmega328p` serves it), for a test that talks to it
    /// as a host through `pty.slavePath`.
    final class ServedBoard: @unchecked Sendable {  // the server is driven by its thread until `stop()`
        let board: AVRBoard
        let pty: PseudoTerminal
        let server: AVRBoardServer
        private var serving: ServingThread?

        /// `bootloaderSeconds`: opening the port resets the board, whose bootloader then waits that
        /// long (an Arduino's DTR); nil: the board runs on across opens.
        init(bootloaderSeconds: Double? = nil) throws {
            board = try AVRBoard(firmware: try AVRFirmwareBuild().build(repositoryRoot: Repository.root.path))
            pty = try PseudoTerminal()
            if let bootloaderSeconds {
                server = AVRBoardServer(
                    board: board, pty: pty, realTime: true, bootloaderCycles: UInt64(bootloaderSeconds * Double(board.frequency)))
            } else {
                server = AVRBoardServer(board: board, link: pty.master, realTime: true)
            }
        }

        /// Starts serving (after the server's knobs are set).
        func start() {
            serving = ServingThread { [self] goOn in try server.serve(while: goOn) }
        }

        /// Stops serving, waits for the thread, and closes the pty.
        func stop() {
            serving?.stop()
            pty.close()
        }
    }
#endif
