import Foundation
import TestSupport
import Testing

/// One line naming what is wrong, with a hint, for the mistakes a new user makes (issue 24,
/// item 11): no generic usage, no "cannot read" without a reason, nothing silently ignored.
@Suite struct MessageTests {
    static func run(_ arguments: [String]) throws -> (status: Int32?, output: String, errors: String) {
        try HapticProcess.run(arguments, timeout: 30)
    }

    /// An unknown --actuator: the command's own usage, not `haptic <subcommand>`.
    @Test(arguments: [["play", "preset:impact.heavy"], ["compile", "preset:impact.heavy"], ["emulate", "--seconds", "1"]])
    func anUnknownActuatorNamesTheChoices(command: [String]) throws {
        let run = try Self.run(command + ["--actuator", "no-such-part"])
        #expect(run.status == 64)
        #expect(run.errors.contains("no actuator profile named 'no-such-part'; available: "), "\(run.errors)")
        #expect(run.errors.contains("Usage: haptic \(command[0])"), "\(run.errors)")
    }

    /// `verify --play -1`: the value is read and judged, not "Missing value".
    @Test func aNegativePlayNumberIsJudged() throws {
        let run = try Self.run(["verify", "preset:impact.heavy", "--trace", "/nope.jsonl", "--play", "-1"])
        #expect(run.status == 64)
        #expect(run.errors.contains("--play must be 1 or more, not -1"), "\(run.errors)")
    }

    /// `verify --trace` on a missing file or a folder says which.
    @Test func aTraceThatCannotBeReadSaysWhy() throws {
        let missing = try Self.run(["verify", "preset:impact.heavy", "--trace", "/nope/t.jsonl"])
        #expect(missing.status == 64)
        #expect(missing.errors.contains("/nope/t.jsonl: no such file"), "\(missing.errors)")
        #expect(!missing.errors.contains("line 0"), "\(missing.errors)")
        let folder = try Self.run(["verify", "preset:impact.heavy", "--trace", NSTemporaryDirectory()])
        #expect(folder.status == 64)
        #expect(folder.errors.contains("is a folder"), "\(folder.errors)")
    }

    /// `--firmware DIR`: a folder, not "no such file".
    @Test func aFirmwareFolderIsNamedAsOne() throws {
        let run = try Self.run(["emulate", "--mcu", "atmega328p", "--firmware", NSTemporaryDirectory(), "--seconds", "1"])
        #expect(run.status == 1)
        #expect(run.errors.contains("is a folder, not an ELF file"), "\(run.errors)")
    }

    /// `profile --corpus /nope`: no such folder.
    @Test func aMissingCorpusFolderIsNamed() throws {
        let run = try Self.run(["profile", "--corpus", "/nope/corpus"])
        #expect(run.status == 64)
        #expect(run.errors.contains("--corpus /nope/corpus: no such folder"), "\(run.errors)")
    }

    /// A cached firmware is reused, not said to be built.
    @Test func aCachedFirmwareIsNotSaidToBeBuilt() throws {
        _ = try HapticProcess.run(["emulate", "--mcu", "atmega328p", "--seconds", "0.1"], timeout: 300)
        let again = try HapticProcess.run(["emulate", "--mcu", "atmega328p", "--seconds", "0.1"], timeout: 120)
        #expect(again.status == 0, "\(again.errors)")
        #expect(!again.output.contains("firmware: building"), "\(again.output)")
        #expect(again.output.contains("firmware: pwm/lra up to date in "), "\(again.output)")
    }

    /// `emulate --driver drv2605l` without --mcu is refused, not ignored.
    @Test func aDriverWithoutMCUIsRefused() throws {
        let run = try Self.run(["emulate", "--driver", "drv2605l", "--seconds", "1"])
        #expect(run.status == 64)
        #expect(run.errors.contains("--driver needs --mcu atmega328p"), "\(run.errors)")
    }
}
