import FirmwareModel
import Foundation
import HapticProtocol
import TestSupport
import Testing

/// firmware-protocol/vectors/v3/programs.txt: format 3 validation (rule (f), error 31), T, the
/// peak (3.1) and the seek bound X (3.5) of every program.
struct Format3Tests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var program: [UInt8]
        var expect: [Substring]
        var testDescription: String { name }
    }

    static let cases: [Case] = {
        let url = Repository.url("firmware-protocol/vectors/v3/programs.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var out: [Case] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            if fields[0] == "program" {
                out.append(Case(name: String(fields[1]), program: Hex.decode(fields[2]) ?? [], expect: []))
            } else if fields[0] == "expect:" {
                out[out.count - 1].expect = Array(fields.dropFirst())
            }
        }
        return out
    }()

    @Test func everyProgramIsRead() {
        #expect(Self.cases.count == 12)
    }

    @Test(arguments: cases)
    func program(_ c: Case) {
        do {
            let checked = try Format3.validate(c.program, configuration: .default)
            let got = [
                "ok", "total", "\(checked.header.totalTicks)", "peak", "\(ProgramFigures.peak(checked.instructions))",
                "seek_bound", "\(ProgramFigures.seekBound(checked.instructions))",
            ]
            #expect(got == c.expect.map(String.init), "\(c.name)")
        } catch {
            #expect(["error", "\(error.code)"] == c.expect.map(String.init), "\(c.name)")
        }
    }
}
