import AVREmulator
import Foundation

extension QEMUFirmwareBuild {
    /// The ELF to run: `firmware` once it is checked to be an ARM ELF, else one built from the
    /// checkout the process runs in, into the per-user cache (said in `log`).
    public static func firmwareToRun(_ firmware: String?, log: (String) -> Void) throws(FirmwareUnavailable) -> String {
        if let firmware {
            if let problem = problem(withELF: firmware) { throw FirmwareUnavailable(problem) }
            return firmware
        }
        guard let checkout = FirmwareSources.checkout() else {
            throw FirmwareUnavailable(
                "no firmware to run: run from a HapticBridge checkout (it builds hardware/firmware with arm-none-eabi-gcc) or pass --firmware PATH.elf"
            )
        }
        let cache = FirmwareSources.cacheDirectory(for: checkout)
        log("firmware: building the micro:bit firmware from \(checkout)/hardware/firmware into \(cache)")
        do {
            return try build(repositoryRoot: checkout, buildDirectory: cache)
        } catch {
            throw FirmwareUnavailable(
                "cannot build the firmware (install gcc-arm-none-eabi libnewlib-arm-none-eabi, or pass --firmware PATH.elf): \(error)")
        }
    }

    /// Why `path` cannot run on the micro:bit, in one line, or nil when it is an ARM ELF.
    public static func problem(withELF path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "--firmware \(path): no such file or not readable" }
        defer { try? handle.close() }
        let header = [UInt8](handle.readData(ofLength: 20))
        guard header.count == 20, header[0..<4] == [0x7F, 0x45, 0x4C, 0x46] else {
            return "--firmware \(path): not an ELF file; pass the .elf that `make -C hardware/firmware cortex-m` links"
        }
        let machine = UInt16(header[19]) << 8 | UInt16(header[18])
        guard header[5] == 1, machine == 40 else {  // little-endian, EM_ARM
            return "--firmware \(path): an ELF for another processor (e_machine \(machine)); the micro:bit runs ARM firmware (e_machine 40)"
        }
        return nil
    }
}
