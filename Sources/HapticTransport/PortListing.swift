import CLibSerialPort
import Foundation

/// A serial port the OS knows about, as libserialport describes it.
public struct SerialPortInfo: Equatable, Hashable, Sendable {
    public enum Connection: String, Equatable, Hashable, Sendable, Codable {
        /// A UART on the board itself (ttyS*, ttyAMA*) or one libserialport cannot place.
        case native
        case usb
        case bluetooth
    }

    public struct USBDetails: Equatable, Hashable, Sendable {
        public var vendorID: UInt16
        public var productID: UInt16
        public var manufacturer: String?
        public var product: String?
        public var serialNumber: String?
        public var bus: Int?
        public var address: Int?

        public init(
            vendorID: UInt16, productID: UInt16, manufacturer: String? = nil, product: String? = nil,
            serialNumber: String? = nil, bus: Int? = nil, address: Int? = nil
        ) {
            self.vendorID = vendorID
            self.productID = productID
            self.manufacturer = manufacturer
            self.product = product
            self.serialNumber = serialNumber
            self.bus = bus
            self.address = address
        }

        /// "2341:0043", the way lsusb and udev rules write it.
        public var vendorProduct: String { "\(hex4(vendorID)):\(hex4(productID))" }
    }

    /// The device path, e.g. /dev/ttyACM0 or /dev/cu.usbmodem1101.
    public var path: String
    /// libserialport's one-line description (the USB product string for USB devices).
    public var description: String
    public var connection: Connection
    /// Present for USB ports.
    public var usb: USBDetails?
    /// Present for Bluetooth ports (macOS, Windows).
    public var bluetoothAddress: String?

    public init(path: String, description: String, connection: Connection, usb: USBDetails? = nil, bluetoothAddress: String? = nil) {
        self.path = path
        self.description = description
        self.connection = connection
        self.usb = usb
        self.bluetoothAddress = bluetoothAddress
    }
}

package func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 4 - digits.count) + digits
}

/// The serial ports present now, sorted by path. An empty list is not an error.
public func listSerialPorts() throws(TransportError) -> [SerialPortInfo] {
    var list: UnsafeMutablePointer<OpaquePointer?>?
    let result = sp_list_ports(&list)
    guard result == SP_OK, let list else {
        if result == SP_ERR_FAIL {
            throw TransportError(errno: sp_last_error_code(), operation: "sp_list_ports", name: "serial ports", opening: false)
        }
        throw TransportError(.system, name: "serial ports", detail: "sp_list_ports: \(result.rawValue)")
    }
    defer { sp_free_port_list(list) }
    var ports: [SerialPortInfo] = []
    var index = 0
    while let port = list[index] {
        ports.append(describe(port))
        index += 1
    }
    return ports.sorted { $0.path < $1.path }
}

private func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}

private func describe(_ port: OpaquePointer) -> SerialPortInfo {
    let path = string(sp_get_port_name(port)) ?? ""
    var info = SerialPortInfo(path: path, description: string(sp_get_port_description(port)) ?? path, connection: .native)
    switch sp_get_port_transport(port) {
    case SP_TRANSPORT_USB:
        info.connection = .usb
        var vendor: Int32 = 0, product: Int32 = 0, bus: Int32 = 0, address: Int32 = 0
        let ids = sp_get_port_usb_vid_pid(port, &vendor, &product) == SP_OK
        let location = sp_get_port_usb_bus_address(port, &bus, &address) == SP_OK
        info.usb = SerialPortInfo.USBDetails(
            vendorID: ids ? UInt16(truncatingIfNeeded: vendor) : 0,
            productID: ids ? UInt16(truncatingIfNeeded: product) : 0,
            manufacturer: string(sp_get_port_usb_manufacturer(port)),
            product: string(sp_get_port_usb_product(port)),
            serialNumber: string(sp_get_port_usb_serial(port)),
            bus: location ? Int(bus) : nil,
            address: location ? Int(address) : nil)
    case SP_TRANSPORT_BLUETOOTH:
        info.connection = .bluetooth
        info.bluetoothAddress = string(sp_get_port_bluetooth_address(port))
    default:
        break
    }
    return info
}

// MARK: - Codable (`haptic ports --json` writes this form with snake_case keys, docs/cli.md)

/// Decoding is synthesized (absent or null optionals read as nil); encoding is written out below.
extension SerialPortInfo: Codable {
    private enum CodingKeys: String, CodingKey {
        case path, description, usb, bluetoothAddress
        case connection = "transport"
    }

    /// Every key is always present (null when it does not apply), so consumers need no existence checks.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(description, forKey: .description)
        try container.encode(connection, forKey: .connection)
        try container.encode(usb, forKey: .usb)
        try container.encode(bluetoothAddress, forKey: .bluetoothAddress)
    }
}

extension SerialPortInfo.USBDetails: Codable {
    private enum Keys: String, CodingKey {
        case vendorID, productID, manufacturer, product, serialNumber, bus, address
    }

    /// IDs as 4-digit lowercase hex strings ("2341"), as lsusb prints them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(hex4(vendorID), forKey: .vendorID)
        try container.encode(hex4(productID), forKey: .productID)
        try container.encode(manufacturer, forKey: .manufacturer)
        try container.encode(product, forKey: .product)
        try container.encode(serialNumber, forKey: .serialNumber)
        try container.encode(bus, forKey: .bus)
        try container.encode(address, forKey: .address)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        func id(_ key: Keys) throws -> UInt16 {
            let text = try container.decode(String.self, forKey: key)
            guard let value = UInt16(text, radix: 16) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a hex USB id: \(text)")
            }
            return value
        }
        vendorID = try id(.vendorID)
        productID = try id(.productID)
        manufacturer = try container.decodeIfPresent(String.self, forKey: .manufacturer)
        product = try container.decodeIfPresent(String.self, forKey: .product)
        serialNumber = try container.decodeIfPresent(String.self, forKey: .serialNumber)
        bus = try container.decodeIfPresent(Int.self, forKey: .bus)
        address = try container.decodeIfPresent(Int.self, forKey: .address)
    }
}
