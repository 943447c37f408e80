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

    /// The reference firmware's rate (hardware/firmware), and so the default everywhere a host
    /// opens a port: for a 16 MHz AVR, 500000 and 1000000 baud are exact, 115200 is 2.1 % off.
    public static let referenceBaudRate = 500_000
    /// The lowest rate the session's time limits allow: INFO (66 bytes framed) takes 69 ms at
    /// 9600 baud, within the 100 ms command time-out (PROTOCOL.md 2.4).
    public static let minimumBaudRate = 9_600

    /// `referenceBaudRate` by default.
    public var baudRate: Int
    public var flowControl: FlowControl

    public init(baudRate: Int = SerialConfiguration.referenceBaudRate, flowControl: FlowControl = .none) {
        self.baudRate = baudRate
        self.flowControl = flowControl
    }
}
