import HapticProtocol

/// A program the device holds (or streams), ready to play with one frame.
public struct PreparedPattern: Sendable, Hashable {
    public var program: Program
    /// The slot that holds it; nil when it is larger than a slot and plays from the stream.
    public var slot: UInt8?
    /// The device's tick rate.
    public var rate: UInt16

    public var isStreamed: Bool { slot == nil }
    public var totalTicks: UInt32 { program.header.totalTicks }
    public var duration: Double { Double(totalTicks) / Double(max(1, rate)) }
}

/// What a PLAY was acknowledged with.
public struct PlayReceipt: Sendable, Hashable {
    /// The slot played (0xFF: the stream).
    public var slot: UInt8
    /// The device tick at which the program's tick 0 is output (PLAY's ACK value, 2.8).
    public var startTick: UInt32
    public var totalTicks: UInt32
    /// 0: until stopped.
    public var loops: UInt16
    public var rate: UInt16
    /// Host time (`HapticDevice.hostTime()`) of the `play` call.
    public var calledAt: Double
    /// The master scale the play was sent with (1.11; 255: full intensity).
    public var scale: UInt8 = 255
    /// The play id and channel mask (PROTOCOL-3.md 3.3; on 2.0 and for single-actuator calls: 0, 1).
    public var play: UInt8 = 0
    public var channels: UInt16 = 1
    /// Device resets the session had seen before the play: a later one ends it (`waitForEnd`).
    var resetsBefore = 0

    /// Seconds from the start to the end of the last iteration (infinite for loops 0).
    public var expectedDuration: Double {
        loops == 0 ? .infinity : Double(totalTicks) * Double(loops) / Double(max(1, rate))
    }
}

/// Core Haptics' advanced player: looping and live parameters on a prepared pattern.
public struct HapticAdvancedPlayer: Sendable {
    public let device: HapticDevice
    public let prepared: PreparedPattern
    /// Repeat until `stop` (PLAY with loops 0; seamless iterations, 2.8).
    public var loopEnabled = false

    public init(device: HapticDevice, prepared: PreparedPattern) {
        self.device = device
        self.prepared = prepared
    }

    @discardableResult
    public func start(at time: HapticDevice.PlayTime = .now, intensity: Double = 1, sharpness: Double = 0) async throws -> PlayReceipt {
        try await device.play(prepared, at: time, intensity: intensity, sharpness: sharpness, loops: loopEnabled ? 0 : 1)
    }

    /// Live intensity (master scale) and sharpness offset while it plays.
    public func sendParameters(intensity: Double, sharpness: Double = 0) async throws {
        try await device.sendParameters(intensity: intensity, sharpness: sharpness)
    }

    @discardableResult
    public func stop(brake: Bool = true) async throws -> UInt32 {
        try await device.stop(brake: brake)
    }
}
