import Foundation

/// The bootloader images Debian's arduino-core-avr ships for the ATmega328P boards, run in front of
/// the firmware as the boards' fuses set it up (`AVRBoard.loadBootloader`).
public enum AVRBootloader: String, CaseIterable, Sendable {
    /// Optiboot (Uno, current Nano) at 0x7E00: it turns the watchdog off before it starts the
    /// firmware, so the firmware may reset through the watchdog.
    case optiboot
    /// ATmegaBOOT_168_atmega328 (old Nano, Pro Mini 328) at 0x7800, built without its watchdog fix:
    /// a watchdog reset loops in it for good, so the firmware is built with BOOTLOADER=atmegaboot
    /// and restarts in software instead (board.h).
    case atmegaboot

    /// Where arduino-core-avr installs the bootloaders.
    public static let directory = "/usr/share/arduino/hardware/arduino/avr/bootloaders"

    /// The image's path.
    public var hexPath: String {
        switch self {
        case .optiboot: return Self.directory + "/optiboot/optiboot_atmega328.hex"
        case .atmegaboot: return Self.directory + "/atmega/ATmegaBOOT_168_atmega328.hex"
        }
    }

    /// nil when the image is there, else what to install.
    public var problem: String? {
        FileManager.default.fileExists(atPath: hexPath)
            ? nil : "\(hexPath): no \(rawValue) image (install arduino-core-avr: apt-get install arduino-core-avr)"
    }

    /// The firmware build for a board with this bootloader (make BOOTLOADER=...).
    public func configure(_ build: inout AVRFirmwareBuild) {
        if self == .atmegaboot { build.variables["BOOTLOADER"] = rawValue }
    }
}
