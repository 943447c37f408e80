import FirmwareModel
import Foundation
import HapticConformance
import HapticProtocol
import HapticTransport
import HapticVirtualDevice
import TestSupport
import Testing

/// firmware-protocol/vectors/v3's sessions through the protocol 3.0 virtual device on its real
/// pty: the host's bytes of each session written at (or, in real time, after) their ticks, the
/// frames the pty returns compared with what `DeviceModel3` answers to the same bytes at the ticks
/// the device actually took them, and every channel's sample too. The ticks are relaxed, not the
/// bytes: a late input shifts the answers' ticks, and the model fed as late answers the same.
@Suite(.serialized) struct VirtualDevice3VectorTests {
    static let sessions: [DeviceVectorFile3] =
        (try? DeviceVectorFile3.all(in: Repository.path("firmware-protocol/vectors/v3/sessions"))) ?? []

    @Test func everySessionIsRead() {
        #expect(Self.sessions.count >= 16)
    }

    @Test(arguments: sessions.map(\.name))
    func session(_ name: String) throws {
        let file = try #require(Self.sessions.first { $0.name == name })
        var options = VirtualDevice.Options(baudRate: 0)  // an ideal line: a frame takes effect at the next tick
        options.trace = true
        let device = try VirtualDevice3(configuration: file.configuration, options: options)
        let client = try openTransport(path: device.path)  // open before the boot: its RESET arrives
        defer { client.close() }
        device.start()
        var received: [UInt8] = []
        func read(until done: () -> Bool, timeout: Double) throws {
            let deadline = monotonicSeconds() + timeout
            while !done(), monotonicSeconds() < deadline { received += try client.read(maxCount: 4096, timeout: 0.0005) }
        }
        var faults: [(tick: UInt32, channel: Int, code: UInt8)] = []
        for event in file.lines.events {
            try read(until: { Int32(bitPattern: device.now &- event.tick) >= 0 }, timeout: 5)
            switch event {
            case .input(let input): try client.write(input.bytes, timeout: 1)
            case .fault(_, let channel, let code): faults.append((device.setStageFault(channel: channel, code: code), channel, code))
            }
        }
        // The session's ticks and 50 more, then until the line is quiet for 50 ms.
        try read(until: { device.now >= UInt32(file.lines.ticks) + 50 }, timeout: 5)
        var quietSince = monotonicSeconds()
        while monotonicSeconds() - quietSince < 0.05 {
            let bytes = try client.read(maxCount: 4096, timeout: 0.005)
            if !bytes.isEmpty { quietSince = monotonicSeconds() }
            received += bytes
        }
        device.stop()
        let ran = device.now
        let inputs = device.tracedFrames.filter { $0.frame == .in }
        let fileInputs = file.lines.events.filter { if case .input = $0 { true } else { false } }
        #expect(inputs.count == fileInputs.count)
        // Never early (a byte takes effect at the tick after it arrives); the hang-catching bound is generous.
        for (input, event) in zip(inputs, fileInputs) {
            #expect(
                input.tick >= event.tick && input.tick <= event.tick + 2_000, "\(name): \(input.type) at \(input.tick), the file's at \(event.tick)")
        }

        // The model, fed the same frames and faults at the ticks the device took them.
        var model = DeviceModel3(configuration: file.configuration)
        var sent = model.takeOutput()
        var samples: [[OutputSample]] = []
        var nextInput = 0
        var sentBySessionEnd = 0
        for tick in 0..<ran {
            if tick == file.lines.ticks { sentBySessionEnd = sent.count }
            for fault in faults where fault.tick == tick { model.setStageFault(channel: fault.channel, code: fault.code) }
            while nextInput < inputs.count, inputs[nextInput].tick == tick {
                sent += model.receive(Hex.decode(inputs[nextInput].hex) ?? [])
                nextInput += 1
            }
            let step = model.step()
            sent += step.sent
            samples.append(step.samples)
        }
        #expect(nextInput == inputs.count)
        let recorded = device.samples(from: 0, count: Int(ran))
        #expect(recorded.count == samples.count)
        let sampleDifference = zip(recorded, samples).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(sampleDifference == nil, "\(name): tick \(sampleDifference?.offset ?? 0): \(sampleDifference.map { "\($0.element)" } ?? "")")

        // The pty's frames: what the model sent, in order, up to where the client stopped reading
        // (past the session's ticks), PONG's subtick aside (measured from the host's clock).
        let fromPTY = Self.frames(received)
        let fromModel = Self.frames(sent)
        let bySessionEnd = Self.frames(Array(sent.prefix(sentBySessionEnd))).count
        #expect(
            fromPTY.count >= bySessionEnd && bySessionEnd > 0, "\(name): \(fromPTY.count) frames from the pty, \(bySessionEnd) by the session's end")
        let frameDifference = zip(fromPTY, fromModel).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(frameDifference == nil, "\(name): frame \(frameDifference?.offset ?? 0): \(frameDifference.map { "\($0.element)" } ?? "")")
    }

    /// The frames in `bytes`, each PONG's subtick set to 0.
    static func frames(_ bytes: [UInt8]) -> [Frame] {
        var decoder = FrameDecoder()
        return decoder.push(bytes).compactMap { try? $0.get() }.map { frame in
            guard frame.messageType == MessageType.pong.rawValue, frame.payload.count >= 10 else { return frame }
            var zeroed = frame
            zeroed.payload.replaceSubrange(8..<10, with: [0, 0])
            return zeroed
        }
    }
}
