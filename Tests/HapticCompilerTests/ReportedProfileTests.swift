import HapticCompiler
import HapticProtocol
import Testing

/// The one rule from a device's INFO to a profile (`ActuatorProfile.reported(by:)`), used by the
/// device facade, the emulator's traces and the doctor.
@Suite struct ReportedProfileTests {
    static func info(_ name: String, _ actuator: Message.Info.Actuator) -> Message.Info {
        Message.Info(
            firmwareMajor: 1, firmwareMinor: 0, firmwarePatch: 0, actuatorCode: actuator.rawValue, profileID: 0, deviceID: 0,
            capabilities: [], rate: 1000, brakeTicks: 0, safetyThreshold: 0, slotCount: 4, safetyTicks: 0, maxBody: 256,
            slotCapacity: 256, streamCapacity: 64, rxBuffer: 64, wakeTicks: 0, idleTicks: 0, watchdog: 0,
            profileName: Array(name.utf8.prefix(Message.Info.maxProfileNameCount)))
    }

    @Test func aNameCutTo16CharactersNamesItsProfile() {
        #expect(ActuatorProfile.builtIn(reportedName: "lra-drv2605l-170")?.name == "lra-drv2605l-170hz-10mm")
        #expect(ActuatorProfile.reported(by: Self.info("lra-drv2605l-170", .lra)).name == "lra-drv2605l-170hz-10mm")
    }

    @Test func anExactNameWinsOverLongerOnes() throws {
        let name = try #require(ActuatorProfile.builtIns.map(\.name).first { $0.count <= Message.Info.maxProfileNameCount })
        #expect(ActuatorProfile.builtIn(reportedName: name)?.name == name)
    }

    @Test func anEmptyUnknownOrAmbiguousNameFallsBackToTheKindsDefault() {
        #expect(ActuatorProfile.builtIn(reportedName: "") == nil)
        #expect(ActuatorProfile.builtIn(reportedName: "no-such-part") == nil)
        #expect(ActuatorProfile.builtIn(reportedName: "lra") == nil)
        #expect(ActuatorProfile.reported(by: Self.info("", .erm)).name == "erm-coin-10mm")
        #expect(ActuatorProfile.reported(by: Self.info("lra", .voiceCoil)).name == "vc-haptuator-mark2d")
        #expect(ActuatorProfile.reported(by: Self.info("", .lra)).name == ActuatorProfile.defaultName)
    }

    @Test func theReportedIdentityReadsBackAsTheSameProfile() {
        for profile in ActuatorProfile.builtIns {
            let identity = profile.reportedIdentity
            let name = String(decoding: identity.name, as: UTF8.self)
            let back = ActuatorProfile.builtIn(reportedName: name)
            // Two built-ins may share their first 16 characters; then the kind's default stands in.
            if ActuatorProfile.builtIns.filter({ $0.name.hasPrefix(name) }).count == 1 { #expect(back?.name == profile.name) }
        }
    }
}
