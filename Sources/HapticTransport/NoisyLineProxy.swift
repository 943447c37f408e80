import Foundation

/// A fault-injecting pseudo-terminal between a host and a device: the host opens `path` (a pty
/// slave, like a serial port); the proxy opens the device's port and copies bytes both ways
/// through the real tty layer, each direction through its own seeded `LineNoise`.
///
///     let proxy = try NoisyLineProxy(devicePath: virtualDevice.path, toDevice: noise, toHost: noise)
///     proxy.start()
///     let device = try await HapticDevice.open(path: proxy.path)
///
/// A dedicated thread copies with 2 ms reads; `stop()` ends it and closes both ends.
public final class NoisyLineProxy: @unchecked Sendable {
    /// Where the host connects.
    public var path: String { pty.slavePath }

    private let pty: PseudoTerminal
    private let device: any Transport
    private let lock = NSLock()
    private var toDevice: LineNoise
    private var toHost: LineNoise
    private var cleanFromDevice: [UInt8] = []
    /// Keep every byte the device sent, before the noise (`deviceBytes`): the device's own account
    /// of what it did, for checking what the host concluded. Set before `start`.
    public var recordsDeviceBytes = false
    private let loop = LoopThread()

    public init(
        devicePath: String, toDevice: LineNoise, toHost: LineNoise, configuration: SerialConfiguration = SerialConfiguration()
    ) throws(TransportError) {
        pty = try PseudoTerminal()
        do {
            device = try openTransport(path: devicePath, configuration: configuration)
        } catch {
            pty.close()
            throw error
        }
        self.toDevice = toDevice
        self.toHost = toHost
    }

    /// The noise applied so far in each direction.
    public var noise: (toDevice: LineNoise, toHost: LineNoise) { lock.withLock { (toDevice, toHost) } }

    /// The bytes the device sent so far, before the noise (with `recordsDeviceBytes`).
    public var deviceBytes: [UInt8] { lock.withLock { cleanFromDevice } }

    public func start() {
        loop.start(name: "noisy-line") { [self] in
            while !loop.isStopping { pump() }
        }
    }

    private func pump() {
        var idle = true
        // Host to device. Before the host opens the slave, or after it closes it, the master reads
        // nothing (or `.disconnected`): no client now, not the end.
        if let bytes = try? pty.master.read(maxCount: 4096, timeout: 0.002), !bytes.isEmpty {
            idle = false
            let out = lock.withLock { toDevice.apply(bytes) }
            if !out.isEmpty { try? device.write(out, timeout: 0.5) }
        }
        if let bytes = try? device.read(maxCount: 4096, timeout: 0.002), !bytes.isEmpty {
            idle = false
            let out = lock.withLock {
                if recordsDeviceBytes { cleanFromDevice += bytes }
                return toHost.apply(bytes)
            }
            if !out.isEmpty { try? pty.master.write(out, timeout: 0.5) }
        }
        if idle { usleep(500) }
    }

    /// Ends the copying and closes both ends.
    public func stop() {
        loop.stop()
        device.close()
        pty.close()
    }

    deinit { stop() }
}
