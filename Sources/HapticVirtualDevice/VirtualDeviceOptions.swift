import FirmwareModel
import HapticCompiler
import HapticProtocol
import HapticTransport

/// How a virtual device is served (`VirtualDevice.Options`, `VirtualDevice3.Options`): the
/// actuator, the device-wide configuration, the line, the time scale, the clock's drift, the
/// faults on the pty and the trace.
public struct VirtualDeviceOptions: Sendable {
    public var profile: ActuatorProfile
    /// Line rate of the modelled UART; 0: an ideal line.
    public var baudRate: Int
    /// The model's configuration (protocol 3.0: its device-wide part, `DeviceModel3.Configuration.base`);
    /// the identity fields (actuator, profile name, capabilities) and the brake length are filled
    /// in from `profile` (`identifiedConfiguration`).
    public var configuration: DeviceModel.Configuration
    /// Samples kept (10 minutes at 1 kHz by default).
    public var recordLimit: Int
    /// Time scale: 1 is real time; tests play long patterns at 20 (ticks and line times both
    /// shrink by this factor, so the device sees the same world, only sooner).
    public var speed: Double
    /// Faults applied to the bytes on the pty, each direction with its own injector
    /// (`FaultInjector`; seeds `faultSeed` for the bytes to the device, `faultSeed + 1` for
    /// the bytes from it), before the UART line: the device and the client see what a flaky
    /// line delivers, the same for the same seed and the same bytes.
    public var faults = FaultProfile.none
    public var faultSeed: UInt64 = 0
    /// Keep a trace (`trace()`, `DeviceTrace`): every frame each way and, for protocol 2.0, every
    /// sample, per boot.
    public var trace = false
    /// The device's clock error against the host's, in ppm (`ClockDrift`): positive runs fast,
    /// each tick lasting 1 / (1 + ppm / 10^6) of its nominal time in host time. The UART's
    /// byte times stay nominal (a 0.5 % error is far inside a UART's tolerance).
    public var driftPPM: Double = 0

    public init(
        profile: ActuatorProfile? = nil, baudRate: Int = SerialConfiguration.referenceBaudRate,
        configuration: DeviceModel.Configuration = .default, recordLimit: Int = 600_000,
        speed: Double = 1
    ) {
        self.speed = max(0.001, speed)
        self.profile = profile ?? ActuatorProfile.builtIns.first { $0.name == ActuatorProfile.defaultName } ?? ActuatorProfile.builtIns[0]
        self.baudRate = baudRate
        self.configuration = configuration
        self.recordLimit = recordLimit
    }

    /// `configuration` with the identity of a virtual device of `profile`: its actuator kind and
    /// name, device ID "VDEV", SUBTICK (PONG's subtick is measured) and SHARPNESS when the
    /// profile renders it, a power-on boot, and the stop brake as long as the actuator's output
    /// stage brakes (0 for a stage that cannot reverse the motor), as `haptic render --actuator`
    /// draws it.
    public var identifiedConfiguration: DeviceModel.Configuration {
        var configuration = configuration
        let identity = profile.reportedIdentity
        configuration.actuator = identity.actuator
        configuration.profileName = String(decoding: identity.name, as: UTF8.self)
        configuration.deviceID = VirtualDevice.deviceID
        configuration.capabilities.insert(.subtick)
        if profile.rendersSharpness { configuration.capabilities.insert(.sharpness) }
        configuration.resetReason = .powerOn
        configuration.core.brakeTicks = UInt16(clamping: profile.brakeTicks(tickRate: Double(configuration.core.rate)))
        return configuration
    }
}
