import CAVRHarness
import Foundation
import HapticTransport

extension AVRBoard {
    /// Cycles per firmware function since `resetProfile()`, largest first: each instruction's
    /// cycles are charged to the text symbol that contains it (symbols from `avr-nm`, so the
    /// AVR binutils must be installed). With link-time optimisation small functions are
    /// inlined and appear under their callers.
    public func cyclesByFunction() throws -> [(function: String, cycles: UInt64)] {
        var counts = [UInt64](repeating: 0, count: 1 << 15)  // 64 KB of flash at most
        let n = hb_avr_pc_cycles(handle, &counts, counts.count)
        let symbols = try Self.textSymbols(firmwarePath)
        var totals: [String: UInt64] = [:]
        for word in 0..<n where counts[word] > 0 {
            let address = UInt32(word * 2)
            let name = symbols.last { $0.address <= address }?.name ?? "?"
            totals[name, default: 0] += counts[word]
        }
        return totals.map { ($0.key, $0.value) }.sorted { $0.cycles > $1.cycles }
    }

    private static func textSymbols(_ elf: String) throws -> [(address: UInt32, name: String)] {
        let data = try runProcess(executable: "/usr/bin/env", arguments: ["avr-nm", "-n", "--defined-only", elf]).stdout
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 3, "Tt".contains(parts[1]), let address = UInt32(parts[0], radix: 16) else { return nil }
            return (address, String(parts[2]))
        }
    }
}
