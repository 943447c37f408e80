import HapticProtocol

extension ActuatorProfile {
    /// The built-in profile a device names in INFO (PROTOCOL.md 2.6): the one whose name is the
    /// INFO profile name, or starts with it (INFO carries at most 16 characters, so longer names
    /// arrive cut: "lra-drv2605l-170" names "lra-drv2605l-170hz-10mm") when exactly one does;
    /// nil for an empty, unknown or ambiguous name.
    public static func builtIn(reportedName name: String) -> ActuatorProfile? {
        guard !name.isEmpty else { return nil }
        let matches = builtIns.filter { $0.name == name || $0.name.hasPrefix(name) }
        if let exact = matches.first(where: { $0.name == name }) { return exact }
        return matches.count == 1 ? matches[0] : nil
    }

    /// The actuator profile to compile for, from what the device reports in INFO:
    ///
    /// 1. the built-in profile the INFO profile name names (`builtIn(reportedName:)`);
    /// 2. otherwise the default part of the reported actuator kind: LRA the project default
    ///    (`ActuatorProfile.defaultName`), ERM "erm-coin-10mm", voice coil "vc-haptuator-mark2d";
    /// 3. an unknown kind: the project default.
    public static func reported(by info: Message.Info) -> ActuatorProfile {
        if let named = builtIn(reportedName: info.profileNameString) { return named }
        let fallback: String
        switch info.actuator {
        case .erm: fallback = "erm-coin-10mm"
        case .voiceCoil: fallback = "vc-haptuator-mark2d"
        case .lra, .unknown, nil: fallback = defaultName
        }
        return builtIns.first { $0.name == fallback } ?? builtIns[0]
    }

    /// The INFO actuator code and (16-character) name a device with this profile reports.
    public var reportedIdentity: (actuator: Message.Info.Actuator, name: [UInt8]) {
        let actuator: Message.Info.Actuator
        switch kind {
        case .lra: actuator = .lra
        case .erm: actuator = .erm
        case .voiceCoil: actuator = .voiceCoil
        }
        return (actuator, Array(name.utf8.prefix(Message.Info.maxProfileNameCount)))
    }
}
