import HapticCompiler
import HapticProtocol
import SerialBridge
import Testing

/// SerialBridge was split into HapticBridge, HapticVirtualDevice, HapticTrace and HapticProfiling
/// (README, "Modules"); code that imports SerialBridge alone still finds every type it had.
@Test func serialBridgeStillNamesEveryTypeItHad() {
    let types: [Any.Type] = [
        HapticDevice.self, PreparedPattern.self, PlayReceipt.self, FeltPrediction.self, RateLimiter.self,
        VirtualDevice.self, DeviceTrace.self, LatencyProfiler.self, LatencyReport.self,
    ]
    #expect(types.count == 9)
    // And the device facade's rule for a device's profile is the compiler's.
    let profile = ActuatorProfile.builtIns[0]
    #expect(HapticDevice.identity(of: profile).name == profile.reportedIdentity.name)
}
