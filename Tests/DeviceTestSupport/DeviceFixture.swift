import FirmwareModel
import Foundation
import HapticBridge
import HapticCompiler
import HapticPattern
import HapticProtocol
import HapticSession
import HapticVirtualDevice
import TestSupport

/// A virtual device on a real pty and a session on its slave path: real parts end to end.
public struct DeviceFixture: Sendable {
    public let virtual: VirtualDevice
    public let device: HapticDevice

    public init(virtual: VirtualDevice, device: HapticDevice) {
        self.virtual = virtual
        self.device = device
    }

    /// Command time-out of the fixtures: 250 ms instead of the protocol's 100 ms, so that a test
    /// machine busy with parallel builds and tests does not starve both ends into a retry storm.
    public static let timing = SessionTiming(commandTimeout: 0.25)

    /// Starts a virtual device (115200 baud by default; its clock `driftPPM` off the host's) and
    /// connects a session to it.
    public static func start(
        baudRate: Int = 115_200, configuration: DeviceModel.Configuration = .default,
        timing: SessionTiming = DeviceFixture.timing, speed: Double = 1, driftPPM: Double = 0
    ) async throws -> DeviceFixture {
        var options = VirtualDevice.Options(baudRate: baudRate, configuration: configuration, speed: speed)
        options.driftPPM = driftPPM
        let virtual = try VirtualDevice(options: options)
        virtual.start()
        do {
            let device = try await HapticDevice.open(
                path: virtual.path, baudRate: baudRate == 0 ? 115_200 : baudRate,
                options: HapticDevice.Options(timing: timing))
            return DeviceFixture(virtual: virtual, device: device)
        } catch {
            virtual.stop()
            throw error
        }
    }

    public func stop() async {
        await device.close()
        virtual.stop()
    }

    /// What the device output from the play's start tick on, once the play has ended and the brake
    /// is over: `count` samples.
    public func recorded(_ receipt: PlayReceipt, count: Int) -> [OutputSample] {
        _ = virtual.waitForTick(receipt.startTick &+ UInt32(count), timeout: 5)
        return virtual.samples(from: receipt.startTick, count: count)
    }
}

/// The interpreter configuration of the fixture's virtual device: the defaults of PROTOCOL.md 1.2
/// with the default profile's brake (a virtual device brakes as long as its profile says).
public let fixtureCore: DeviceConfiguration = {
    var core = DeviceConfiguration.default
    core.brakeTicks = UInt16(clamping: VirtualDevice.Options().profile.brakeTicks(tickRate: Double(core.rate)))
    return core
}()

/// The interpreter run offline on `program`: `loops` seamless iterations (PROTOCOL.md 2.8) at
/// master scale `scale`, then the brake, then one idle sample.
public func offlineOutput(
    _ program: [UInt8], configuration: DeviceConfiguration = fixtureCore, loops: Int = 1,
    scale: UInt8 = 255, offset: Int8 = 0
) -> [OutputSample] {
    var interpreter = Interpreter(configuration: configuration)
    guard (try? interpreter.load(program)) != nil else { return [] }
    interpreter.setMasterScale(scale)
    interpreter.setSharpnessOffset(offset)
    var out: [OutputSample] = []
    var left = loops
    while true {
        let wasPlaying = interpreter.mode == .playing
        var sample = interpreter.step()
        if wasPlaying, interpreter.mode != .playing, interpreter.error == nil, left > 1 {
            left -= 1
            try? interpreter.load(program)
            sample = interpreter.step()
        }
        out.append(sample)
        if interpreter.mode == .idle || out.count > 10_000_000 { break }
    }
    out.append(interpreter.step())
    return out
}

/// The corpus files: Examples/corpus, or the folder `HAPTIC_CORPUS` names.
public func corpusFiles() -> [String] { Corpus.files() }
