import SerialBridge

/// An app's own haptics: a doorbell that rings as the "notification.success" preset on whatever
/// device the app connected (a board on a serial port, or the virtual device in tests).
public struct Doorbell: Sendable {
    public static let preset = "notification.success"

    public init() {}

    /// Plays the ring; returns the device tick it started at.
    @discardableResult
    public func ring(on device: HapticDevice) async throws -> UInt32 {
        try await device.play(preset: Self.preset).startTick
    }
}
