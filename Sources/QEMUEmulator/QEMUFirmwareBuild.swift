import AVREmulator
import Foundation
import HapticTransport

/// Builds the BBC micro:bit firmware (hardware/firmware/boards/microbit/Makefile, arm-none-eabi-gcc)
/// and returns its ELF's path. Builds are serialised across processes with a lock file, since
/// tests may build in parallel.
public enum QEMUFirmwareBuild {
    /// Runs make on the board port of the checkout at `repositoryRoot`; images go to
    /// `buildDirectory` (default: the checkout's `hardware/firmware/build`).
    public static func build(repositoryRoot: String, buildDirectory: String? = nil) throws(QEMUBoardError) -> String {
        let board = repositoryRoot + "/hardware/firmware/boards/microbit"
        let buildDirectory = buildDirectory ?? repositoryRoot + "/hardware/firmware/build"
        try? FileManager.default.createDirectory(atPath: buildDirectory, withIntermediateDirectories: true)
        let lock = open(buildDirectory + "/.microbit-build.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        defer { if lock >= 0 { close(lock) } }
        if lock >= 0 { flock(lock, LOCK_EX) }
        let arguments = ["-s", "--no-print-directory", "-C", board, "BUILD_ROOT=\(buildDirectory)"]
        _ = try make(arguments + ["all"])
        let path = try make(arguments + ["print-elf"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard FileManager.default.fileExists(atPath: path) else { throw .firmware("make did not produce \(path)") }
        return path
    }

    private static func make(_ arguments: [String]) throws(QEMUBoardError) -> String {
        let result: ProcessOutput
        do {
            result = try runProcess(executable: "/usr/bin/env", arguments: ["make"] + arguments)
        } catch {
            throw .firmware("cannot run make: \(error)")
        }
        guard result.status == 0 else {
            throw .firmware(
                "make failed (status \(result.status)); install gcc-arm-none-eabi and libnewlib-arm-none-eabi:\n"
                    + String(decoding: result.stderr + result.stdout, as: UTF8.self))
        }
        return String(decoding: result.stdout, as: UTF8.self)
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
