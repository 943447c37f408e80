/// The five numbers that configure a device (firmware-protocol/PROTOCOL.md 1.2). Fixed at build
/// time or set by the host; a program never changes them.
public struct DeviceConfiguration: Hashable, Sendable {
    /// The tick rate the device runs, Hz; programs with another rate are rejected (error 5).
    public var rate: UInt16
    /// Program buffer capacity in body bytes; longer flat programs are rejected (error 6).
    public var maxBody: UInt32
    /// B: brake samples emitted on end, stop with brake and faults (1.13).
    public var brakeTicks: UInt16
    /// Output amplitude counted as full-scale drive (1.12).
    public var safetyThreshold: UInt8
    /// N: most consecutive full-scale output samples allowed (1.12); 0xFFFFFFFF disables in effect.
    public var safetyTicks: UInt32

    public init(
        rate: UInt16 = 1000, maxBody: UInt32 = 4096, brakeTicks: UInt16 = 20,
        safetyThreshold: UInt8 = 224, safetyTicks: UInt32 = 30_000
    ) {
        self.rate = rate
        self.maxBody = maxBody
        self.brakeTicks = brakeTicks
        self.safetyThreshold = safetyThreshold
        self.safetyTicks = safetyTicks
    }

    /// The defaults of 1.2: 1000 Hz, 4096 body bytes, 20 brake ticks, 30 s at 224 or more.
    public static let `default` = DeviceConfiguration()
}
