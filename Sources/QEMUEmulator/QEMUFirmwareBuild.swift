import AVREmulator

/// Builds the BBC micro:bit firmware (hardware/firmware/boards/microbit/Makefile, arm-none-eabi-gcc)
/// and returns its ELF's path. Builds are serialised across processes with a lock file, since
/// tests may build in parallel.
public enum QEMUFirmwareBuild {
    /// Runs make on the board port of the checkout at `repositoryRoot`; images go to
    /// `buildDirectory` (default: the checkout's `hardware/firmware/build`).
    public static func build(repositoryRoot: String, buildDirectory: String? = nil) throws(QEMUBoardError) -> String {
        do {
            return try BoardPortMake(board: "microbit").build(repositoryRoot: repositoryRoot, buildDirectory: buildDirectory)
        } catch {
            switch error {
            case .cannotRun(let reason): throw .firmware("cannot run make: \(reason)")
            case .failed(let status, let log):
                throw .firmware("make failed (status \(status)); install gcc-arm-none-eabi and libnewlib-arm-none-eabi:\n" + log)
            case .noOutput(let path): throw .firmware("make did not produce \(path)")
            }
        }
    }
}

public enum QEMUBoardError: Error, Equatable, CustomStringConvertible {
    case firmware(String)
    case launch(String)
    /// QEMU ended, or stopped sending step records (`detail` says which).
    case stopped(String)

    public var description: String {
        switch self {
        case .firmware(let reason), .launch(let reason): return reason
        case .stopped(let detail): return "the emulated board stopped: \(detail)"
        }
    }
}
