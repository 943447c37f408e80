import DeviceTestSupport
import FirmwareModel
import HapticProtocol
import HapticVirtualDevice
import Testing

@testable import HapticBridge

@Suite struct SessionFixtureTests {
    @Test func offlineOutputEndsWithBrakeThenIdle() throws {
        let program = Program(instructions: [.setA(100), .end(delay: 5)])
        let out = offlineOutput(program.bytes, configuration: .default)
        #expect(out.prefix(5).allSatisfy { $0.amplitude == 100 })
        #expect(out.count == 5 + Int(DeviceConfiguration.default.brakeTicks) + 1)
        #expect(out.last == .silent)
    }
}
