import HapticCompiler
import HapticSession
import HapticTransport
import Logging

extension HapticDevice {
    public struct Options: Sendable {
        public var timing: SessionTiming
        /// Compile for this actuator instead of the one the device reports.
        public var actuator: ActuatorProfile?
        public var compile: CompileOptions
        /// The haptic rate guidelines (docs/presets.md, "Sources"); disabled unless turned on.
        public var rateLimiter: RateLimiter
        public var logger: Logger
        /// The link's line rate, for what a streamed program may need (`DeviceCapabilities`);
        /// `open(path:baudRate:)` sets it.
        public var baudRate: Int = SerialConfiguration.referenceBaudRate

        public init(
            timing: SessionTiming = SessionTiming(), actuator: ActuatorProfile? = nil,
            compile: CompileOptions = CompileOptions(), rateLimiter: RateLimiter = RateLimiter(),
            logger: Logger = Logger(label: "haptic.session")
        ) {
            self.timing = timing
            self.actuator = actuator
            self.compile = compile
            self.rateLimiter = rateLimiter
            self.logger = logger
        }
    }

    /// When a play starts.
    public enum PlayTime: Sendable, Hashable {
        /// As soon as the device can (the next tick on a warm output stage).
        case now
        /// At this device tick (PLAY's AT flag).
        case deviceTick(UInt32)
        /// At this host time (`HapticDevice.hostTime()`), through the clock estimate.
        case hostTime(Double)
        /// This many seconds from the call.
        case after(Double)
        /// Felt at this host time: the program starts early by its predicted felt onset (lead-in
        /// plus the rise to 50 % of its first peak on this device's actuator, `FeltPrediction`,
        /// computed once per program), at the tick that lands the onset nearest `at`. Assumes a
        /// warm output stage: `prepare` the pattern first (within the device's idle time, 2 s by
        /// default), or a cold stage adds its wake-up. A time too near to start that early plays now.
        case felt(at: Double)
    }
}
