import FirmwareModel
import HapticProtocol
import HapticTrace
import Testing

/// The trace format on its own (haptic-trace/1, docs/cli.md): what is written reads back the
/// same, frames keep their bytes, and a damaged file is one error naming its line.
@Suite struct TraceFormatTests {
    static let header = DeviceTrace.Header(source: "test", profile: "lra-170hz-10mm", tickRate: 1000, brakeTicks: 20)

    @Test func writtenRecordsReadBackTheSame() throws {
        var splitter = DeviceTrace.FrameSplitter(direction: .in)
        let ping = try Message.ping(.init(echo: 7)).encoded(sequence: 3)
        let frames = splitter.feed(ping, tick: 12)
        #expect(frames.count == 1)
        let records: [DeviceTrace.Record] =
            frames.map { .frame($0) } + [
                .output(DeviceTrace.Output(tick: 13, sample: OutputSample(amplitude: 120, sharpness: 0), state: .playing, slot: 0))
            ]
        let file = try DeviceTrace.read(DeviceTrace.text(header: Self.header, records: records))
        #expect(file.header == Self.header)
        #expect(file.records == records)
        guard case .frame(let frame)? = file.records.first else { throw TraceTestFailure() }
        #expect(frame.type == "PING" && frame.sequence == 3 && frame.tick == 12)
        if case .ping(let p)? = frame.message { #expect(p.echo == 7) } else { Issue.record("no PING in \(frame.hex)") }
    }

    @Test func aDamagedLineIsOneErrorNamingIt() {
        let text = DeviceTrace.line(Self.header) + "\n{\"tick\": \n"
        #expect(throws: DeviceTrace.ReadError.self) { try DeviceTrace.read(text) }
        do {
            _ = try DeviceTrace.read(text)
        } catch {
            #expect(error.line == 2)
        }
        #expect((try? DeviceTrace.read("{\"schema\": \"other/1\"}")) == nil)
    }
}

struct TraceTestFailure: Error {}
