import Foundation

/// Where `haptic emulate --mcu` and `haptic profile --mcu` get the firmware they run: an ELF the
/// user names (checked before anything runs), or one built from the firmware sources of the
/// HapticBridge checkout the command runs in, into a per-user cache directory, so that neither
/// the checkout the binary was built from nor the working directory has to be writable or stay put.
public enum FirmwareSources {
    /// The board port's Makefile, relative to a checkout's root.
    static let boardMakefile = "hardware/firmware/boards/atmega328p/Makefile"

    /// The checkout at `start` or its nearest ancestor that holds the firmware sources; else the
    /// checkout this binary was built from, if it is still there; else nil.
    public static func checkout(
        from start: String = FileManager.default.currentDirectoryPath,
        builtFrom file: String = #filePath
    ) -> String? {
        for origin in [start, URL(fileURLWithPath: file).deletingLastPathComponent().path] {
            var url = URL(fileURLWithPath: origin).standardizedFileURL
            while true {
                if FileManager.default.fileExists(atPath: url.appendingPathComponent(boardMakefile).path) { return url.path }
                let parent = url.deletingLastPathComponent()
                if parent.path == url.path { break }
                url = parent
            }
        }
        return nil
    }

    /// `$XDG_CACHE_HOME/hapticbridge/firmware` (default `~/.cache/...`), one folder per checkout.
    public static func cacheDirectory(
        for checkout: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSTemporaryDirectory()) + "/.cache"
        // FNV-1a of the checkout's path: two checkouts never share images.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in checkout.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return base + "/hapticbridge/firmware/" + String(hash, radix: 16)
    }

    /// Why `path` cannot be run as ATmega firmware, in one line, or nil when it is an AVR ELF.
    public static func problem(withELF path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return "--firmware \(path): no such file" }
        guard !isDirectory.boolValue else {
            return "--firmware \(path) is a folder, not an ELF file (the board build writes hapticbridge-atmega328p-*.elf)"
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { return "--firmware \(path): cannot be read" }
        defer { try? handle.close() }
        let header = [UInt8](handle.readData(ofLength: 20))
        guard header.count == 20, header[0..<4] == [0x7F, 0x45, 0x4C, 0x46] else {
            return
                "--firmware \(path): not an ELF file; pass the .elf that avr-gcc links (e.g. hardware/firmware/build/*/*.elf), not a .hex or an AHAP file"
        }
        // e_machine at offset 18, in the file's byte order (EI_DATA at offset 5: 1 little, 2 big).
        let machine = header[5] == 2 ? UInt16(header[18]) << 8 | UInt16(header[19]) : UInt16(header[19]) << 8 | UInt16(header[18])
        guard machine == 83 else {  // EM_AVR
            return "--firmware \(path): an ELF for another processor (e_machine \(machine)); the emulator runs AVR firmware (e_machine 83)"
        }
        return nil
    }
}
