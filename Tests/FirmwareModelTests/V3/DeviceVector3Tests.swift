import FirmwareModel
import Foundation
import HapticConformance
import TestSupport
import Testing

/// firmware-protocol/vectors/v3: every session through `DeviceModel3`, every byte out (with its
/// tick) and every channel's sample compared; the tick-trim starts of trim.txt.
struct DeviceVector3Tests {
    static let directory = Repository.url("firmware-protocol/vectors/v3")

    static let sessions: [DeviceVectorFile3] =
        (try? DeviceVectorFile3.all(in: directory.appendingPathComponent("sessions").path)) ?? []

    @Test func everySessionIsRead() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.appendingPathComponent("sessions").path)
        let count = files.filter { $0.hasSuffix(".txt") }.count
        #expect(count >= 16)
        #expect(Self.sessions.count == count)
    }

    @Test(arguments: sessions.map(\.name))
    func session(_ name: String) throws {
        let file = try #require(Self.sessions.first { $0.name == name })
        let difference = file.differenceFromModel()
        #expect(difference == nil, "\(name): \(difference ?? "")")
    }

    /// trim.txt: `trim <name> period=P changes=tick:ppm,... ticks=n`, then `start <k> <counts>`.
    @Test func trim() throws {
        let text = try String(contentsOf: Self.directory.appendingPathComponent("trim.txt"), encoding: .utf8)
        var starts: [UInt64] = []
        var checked = 0
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            if fields[0] == "trim" {
                var values: [String: Substring] = [:]
                for field in fields.dropFirst(2) {
                    let pair = field.split(separator: "=", maxSplits: 1)
                    values[String(pair[0])] = pair[1]
                }
                let period = try #require(values["period"].flatMap { UInt32($0) })
                let ticks = try #require(values["ticks"].flatMap { Int($0) })
                var changes: [Int: Int32] = [:]
                for change in try #require(values["changes"]).split(separator: ",") {
                    let pair = change.split(separator: ":")
                    changes[Int(pair[0])!] = Int32(pair[1])!
                }
                var trim = TickTrim(period: period)
                starts = [0]
                for k in 0..<ticks {
                    if let ppm = changes[k] { trim.trim = ppm }
                    starts.append(starts[k] + UInt64(trim.nextTickLength()))
                }
            } else if fields[0] == "start" {
                let k = try #require(Int(fields[1]))
                #expect(starts[k] == UInt64(fields[2]), "\(line)")
                checked += 1
            }
        }
        #expect(checked > 100)
    }
}

/// The C core's protocol 3.0 device against the same sessions: what DeviceModel3 is bit-exact
/// with must be the C device's output too (the differential of the two models).
struct DeviceVector3CTests {
    @Test(arguments: DeviceVector3Tests.sessions.map(\.name))
    func cCore(_ name: String) throws {
        let file = try #require(DeviceVector3Tests.sessions.first { $0.name == name })
        let device = CDevice3(file.configuration)
        let difference = file.difference(
            boot: device.boot, receive: { device.receive($0) }, fault: { device.setStageFault(channel: $0, code: $1) },
            step: { device.step() })
        #expect(difference == nil, "\(name): \(difference ?? "")")
    }
}
