import HapticCompiler
import HapticProtocol

extension HapticDevice {
    /// The actuator profile to compile for, from what the device reports (PROTOCOL.md 2.6 INFO):
    /// `ActuatorProfile.reported(by:)`, which has the rule.
    public static func profile(for info: Message.Info) -> ActuatorProfile { ActuatorProfile.reported(by: info) }

    /// The INFO actuator code and (16-character) name a device with `profile` reports.
    public static func identity(of profile: ActuatorProfile) -> (actuator: Message.Info.Actuator, name: [UInt8]) {
        profile.reportedIdentity
    }
}
