import FirmwareModel
import Foundation
import HapticProtocol
import Testing

/// The benchmark program is what it claims, and the figure of docs/performance.md ("Swift model").
struct InterpreterBenchmarkTests {
    @Test func benchmarkProgramIsValidAndBusy() throws {
        let header = try Validator().validate(InterpreterBenchmark.program)
        #expect(header.totalTicks == 255 * 255 * 40)
        var model = Interpreter()
        try model.load(InterpreterBenchmark.program)
        var samples: [OutputSample] = []
        for _ in 0..<400 { samples.append(model.step()) }
        #expect(model.mode == .playing)
        #expect(Set(samples.map(\.amplitude)).count > 20)
        #expect(Set(samples.map(\.sharpness)).count > 10)
        // The same 40 ticks over and over.
        #expect(Array(samples[40..<80]) == Array(samples[360..<400]))
    }

    @Test func measurementCountsEveryTick() {
        let short = InterpreterBenchmark.measure(ticks: 2_000)
        #expect(short.ticks == 2_000 && short.ticksPerSecond > 0 && short.checksum > 0)
        #expect(InterpreterBenchmark.measure(ticks: 2_000).checksum == short.checksum)
    }

    /// `HB_BENCH=1 swift test -c release -Xswiftc -enable-testing --filter interpreterSpeed`:
    /// ticks per second of the Swift model, and of the C core on the same program for scale.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["HB_BENCH"] != nil))
    func interpreterSpeed() {
        _ = InterpreterBenchmark.run(ticks: 1_000_000)  // warm up
        let runs = (0..<5).map { _ in InterpreterBenchmark.measure(ticks: 20_000_000) }
        let rates = runs.map(\.ticksPerSecond).sorted()
        print("Swift model: best \(Int(rates[4])) ticks/s, median \(Int(rates[2])) ticks/s over 5 runs of 20,000,000 ticks")
        let clock = ContinuousClock()
        let start = clock.now
        let checksum = Self.runCCore(ticks: 20_000_000)
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        print("C core: \(Int(20_000_000 / seconds)) ticks/s over 20,000,000 ticks")
        #expect(checksum == runs[0].checksum)
    }

    /// `HB_BENCH_TICKS=<n>`: n ticks of the Swift model, then n ticks of the C core, untimed: for
    /// counting instructions per tick with callgrind (docs/performance.md, "Swift model").
    @Test(.enabled(if: ProcessInfo.processInfo.environment["HB_BENCH_TICKS"] != nil))
    func interpreterWorkload() throws {
        let ticks = try #require(Int(ProcessInfo.processInfo.environment["HB_BENCH_TICKS"]!))
        #expect(InterpreterBenchmark.measure(ticks: ticks).checksum == Self.runCCore(ticks: ticks))
    }

    /// The benchmark loop of `InterpreterBenchmark.measure` on the C core; returns the checksum.
    static func runCCore(ticks: Int) -> UInt64 {
        let c = CFirmware(DeviceConfiguration())
        let bytes = InterpreterBenchmark.program.bytes
        var checksum: UInt64 = 0
        for _ in 0..<ticks {
            if c.mode != 1 { _ = c.load(bytes) }
            let sample = c.step()
            checksum &+= UInt64(sample.amplitude) &+ UInt64(sample.sharpness) << 8 &+ UInt64(sample.flags) << 16
        }
        return checksum
    }
}
