import Foundation
import HapticTrace
import HapticTransport
import HapticVirtualDevice
import Testing

/// `VirtualDevice.serve`, as `haptic emulate` runs it: the lines it says, its one-shot reboot and
/// unplug in time order, its faults and its trace, and a stop asked by its caller.
@Suite(.serialized) struct VirtualDeviceServingTests {
    @Test func servesWithRebootUnplugFaultsAndTraceUntilNothingIsDue() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let knobs = EmulatorKnobs(faults: try FaultSpec("drop=0.5,seed=3"), trace: path, unplugAfter: 0.2)
        var waits: [Double?] = []
        var lines: [String] = []
        // Sleeps as asked until nothing is due any more (asked to wait without a limit), then
        // stops: the reboot and the unplug come first however late a loaded machine wakes it.
        try await VirtualDevice.serve(
            VirtualDevice.Options(), seconds: nil, rebootAfter: 0.1, knobs: knobs,
            wait: { seconds in
                waits.append(seconds)
                guard let seconds else { return true }
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                return false
            }, log: { lines.append($0) })
        #expect(waits.count >= 2 && waits.last == .some(nil))
        try #require(lines.count == 8, "\(lines)")
        #expect(lines[0].hasPrefix("virtual device (") && lines[0].contains("baud, firmware model) on /dev/"))
        #expect(lines[1] == "faults on the pty: drop=0.5,seed=3")
        #expect(lines[2].hasPrefix("try: haptic play preset:impact.medium --port /dev/"))
        #expect(lines[3] == "rebooted after 0.1 s (ticks restart at 0, RESET sent)")
        #expect(lines[4] == "unplugged after 0.2 s: the pty is closed, the device runs on")
        #expect(lines[5].hasPrefix("stopped after ") && lines[5].hasSuffix(" bytes out"))
        #expect(lines[6].hasPrefix("faults: to the device 0 bytes, 0 dropped"))
        #expect(lines[7].hasPrefix("trace: ") && lines[7].hasSuffix(" records in \(path)"))
        let trace = try DeviceTrace.read(contentsOf: path)
        #expect(trace.header.source == "virtual-device")
        #expect(!trace.records.isEmpty)
    }

    @Test func stopsWhenItsCallerSaysSo() async throws {
        var waits: [Double?] = []
        var lines: [String] = []
        try await VirtualDevice.serve(
            VirtualDevice.Options(), seconds: nil, rebootAfter: nil, knobs: EmulatorKnobs(),
            wait: {
                waits.append($0)
                return true
            }, log: { lines.append($0) })
        // Nothing due: it waited without a time limit, once, and stopped.
        #expect(waits == [nil])
        #expect(lines.count == 3 && lines[2].hasPrefix("stopped after "))
    }
}
