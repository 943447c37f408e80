import HapticCompiler
import HapticProtocol

extension HapticDevice {
    /// The actuator profile to compile for, from what the device reports (PROTOCOL.md 2.6 INFO):
    ///
    /// 1. the built-in profile whose name is the INFO profile name, or starts with it (INFO carries
    ///    at most 16 characters, so longer names arrive cut: "lra-drv2605l-170" names
    ///    "lra-drv2605l-170hz-10mm"), when exactly one matches;
    /// 2. otherwise the default part of the reported actuator kind: LRA the project default
    ///    (`ActuatorProfile.defaultName`), ERM "erm-coin-10mm", voice coil "vc-haptuator-mark2d";
    /// 3. an unknown kind: the project default.
    public static func profile(for info: Message.Info) -> ActuatorProfile {
        let name = info.profileNameString
        if !name.isEmpty {
            let matches = ActuatorProfile.builtIns.filter { $0.name == name || $0.name.hasPrefix(name) }
            if let exact = matches.first(where: { $0.name == name }) { return exact }
            if matches.count == 1 { return matches[0] }
        }
        let fallback: String
        switch info.actuator {
        case .erm: fallback = "erm-coin-10mm"
        case .voiceCoil: fallback = "vc-haptuator-mark2d"
        case .lra, .unknown, nil: fallback = ActuatorProfile.defaultName
        }
        return ActuatorProfile.builtIns.first { $0.name == fallback } ?? ActuatorProfile.builtIns[0]
    }

    /// The INFO actuator code and (16-character) name a device with `profile` reports.
    public static func identity(of profile: ActuatorProfile) -> (actuator: Message.Info.Actuator, name: [UInt8]) {
        let actuator: Message.Info.Actuator
        switch profile.kind {
        case .lra: actuator = .lra
        case .erm: actuator = .erm
        case .voiceCoil: actuator = .voiceCoil
        }
        return (actuator, Array(profile.name.utf8.prefix(Message.Info.maxProfileNameCount)))
    }
}
