import HapticProtocol
import HapticSession
import Testing

/// Output-stage faults (PROTOCOL.md 2.18) reach the person at the desk as one line naming the
/// likely cause and the fix.
@Test func everyStageFaultNamesItsCauseAndFix() {
    let codes: [MessageErrorCode] = [.driverAbsent, .driverBus, .calibrationFailed, .overTemperature, .overCurrent]
    for code in codes {
        #expect(code.isStageFault)
        let advice = code.stageFaultAdvice ?? ""
        #expect(advice.contains("(wiring") || advice.contains("(actuator") || advice.contains("supply"), "\(code): \(advice)")
        #expect(advice.contains("then reset the board"), "\(code): a fix")
        #expect(!advice.contains("\n"))
    }
    #expect(MessageErrorCode.underrun.stageFaultAdvice == nil && MessageErrorCode.watchdog.stageFaultAdvice == nil)
    let event = DeviceEvent.fault(slot: Message.Telemetry.noSlot, code: .driverAbsent, tick: 3)
    #expect(event.description.hasPrefix("fault 59 DRIVER_ABSENT on the output stage at tick 3: the haptic driver does not answer on I2C"))
}
