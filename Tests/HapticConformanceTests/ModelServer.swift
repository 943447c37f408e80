import Foundation
import HapticTransport

/// A device the test server can run: bytes in between steps, one step per tick.
protocol ServedDevice: Sendable {
    mutating func receive(_ bytes: [UInt8]) -> [UInt8]
    mutating func step() -> [UInt8]
}

/// Serves a device on a real pseudo-terminal in real time at 1 kHz: what `VirtualDevice` does
/// for the model, for any `ServedDevice` (such as a model with one rule changed), without the
/// UART timing. Bytes from the client take effect before the next step.
final class ModelServer<Device: ServedDevice>: @unchecked Sendable {  // `device` is touched by the thread only
    let pty: PseudoTerminal
    var path: String { pty.slavePath }
    private var device: Device
    private let loop = LoopThread()

    init(_ device: Device) throws {
        self.device = device
        pty = try PseudoTerminal()
        loop.start(name: "model-server") { [self] in run() }
    }

    func stop() {
        loop.stop()
        pty.close()
    }

    private func run() {
        let period = 0.001
        let origin = monotonicSeconds()
        var steps = 0
        while !loop.isStopping {
            let bytes = (try? pty.master.read(maxCount: 4096, timeout: 0.0005)) ?? []
            var out = bytes.isEmpty ? [] : device.receive(bytes)
            while origin + Double(steps) * period <= monotonicSeconds() {
                out += device.step()
                steps += 1
            }
            if !out.isEmpty { try? pty.master.write(out, timeout: 0.1) }
        }
    }
}
