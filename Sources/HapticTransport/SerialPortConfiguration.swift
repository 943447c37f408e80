/// Line settings for opening a port. The frame is always 8 data bits, no parity, 1 stop bit (8N1):
/// the firmware's UART is set up that way and COBS needs all 8 bits.
public struct SerialConfiguration: Equatable, Hashable, Sendable {
    public enum FlowControl: String, Equatable, Hashable, Sendable, CaseIterable {
        /// No flow control: right for the HapticBridge protocol, whose frames are acknowledged.
        case none
        /// Software flow control. Unusable with binary frames unless 0x11/0x13 never occur; offered
        /// for completeness only.
        case xonXoff
        /// Hardware flow control on RTS/CTS.
        case rtsCts
    }

    /// 115200 by default. For a 16 MHz AVR, 500000 and 1000000 are exact, 115200 is 2.1 % off with U2X
    /// (docs/REFERENCE.md section 4).
    public var baudRate: Int
    public var flowControl: FlowControl

    public init(baudRate: Int = 115_200, flowControl: FlowControl = .none) {
        self.baudRate = baudRate
        self.flowControl = flowControl
    }
}
