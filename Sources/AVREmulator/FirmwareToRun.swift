import Foundation

/// Why there is no firmware to run: the ELF given is not one the board runs, or none was given and
/// none could be built; one line with what to do.
public struct FirmwareUnavailable: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

extension AVRFirmwareBuild {
    /// The ELF to run: `firmware` once it is checked to be an AVR ELF, else this build made from the
    /// firmware sources of the checkout the process runs in, into the per-user cache (said in `log`).
    public func firmwareToRun(_ firmware: String?, log: (String) -> Void) throws(FirmwareUnavailable) -> String {
        if let firmware {
            if let problem = FirmwareSources.problem(withELF: firmware) { throw FirmwareUnavailable(problem) }
            return firmware
        }
        guard let checkout = FirmwareSources.checkout() else {
            throw FirmwareUnavailable(
                "no firmware to run: run from a HapticBridge checkout (it builds hardware/firmware with avr-gcc) or pass --firmware PATH.elf")
        }
        let cache = FirmwareSources.cacheDirectory(for: checkout)
        let variant = "\(output.rawValue)/\(actuator.rawValue)"
        let started = Date()
        // Said before a first build (it takes a while); a build that only checks the cache is reported after.
        let cached = (FileManager.default.enumerator(atPath: cache)?.allObjects as? [String] ?? []).contains {
            $0.hasSuffix("-\(output.rawValue)-\(actuator.rawValue).elf")
        }
        if !cached { log("firmware: building \(variant) from \(checkout)/hardware/firmware into \(cache)") }
        do {
            let elf = try build(repositoryRoot: checkout, buildDirectory: cache)
            if cached {
                let modified = (try? FileManager.default.attributesOfItem(atPath: elf)[.modificationDate] as? Date) ?? started
                log(
                    modified < started
                        ? "firmware: \(variant) up to date in \(cache)" : "firmware: rebuilt \(variant) (its sources changed) in \(cache)")
            }
            return elf
        } catch {
            throw FirmwareUnavailable("cannot build the firmware (install gcc-avr avr-libc, or pass --firmware PATH.elf): \(error)")
        }
    }
}
