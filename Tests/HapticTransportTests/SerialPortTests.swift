import Foundation
import HapticTransport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// libserialport on this machine: listing, typed open errors, and (when the machine has a native
/// UART that opens) an open/configure/close cycle. Nothing is written to real ports.
@Suite(.serialized) struct SerialPortTests {
    @Test func listingWorksAndDescribesEachPort() throws {
        let ports = try listSerialPorts()  // zero ports is fine; an error is not
        #expect(ports.map(\.path) == ports.map(\.path).sorted())
        for port in ports {
            #expect(port.path.hasPrefix("/dev/"))
            #expect(!port.description.isEmpty)
            #expect((port.connection == .usb) == (port.usb != nil))
        }
    }

    @Test func listingJSONHasEveryKeyAndRoundTrips() throws {
        let ports = [
            SerialPortInfo(
                path: "/dev/ttyACM0", description: "Arduino Uno", connection: .usb,
                usb: .init(
                    vendorID: 0x2341, productID: 0x0043, manufacturer: "Arduino (www.arduino.cc)",
                    product: "Arduino Uno", serialNumber: "8573", bus: 1, address: 7)),
            SerialPortInfo(path: "/dev/ttyS0", description: "ttyS0", connection: .native),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(ports), as: UTF8.self)
        #expect(
            json
                == #"[{"bluetoothAddress":null,"description":"Arduino Uno","path":"\/dev\/ttyACM0","transport":"usb","usb":{"address":7,"bus":1,"manufacturer":"Arduino (www.arduino.cc)","product":"Arduino Uno","productID":"0043","serialNumber":"8573","vendorID":"2341"}},{"bluetoothAddress":null,"description":"ttyS0","path":"\/dev\/ttyS0","transport":"native","usb":null}]"#
        )
        #expect(try JSONDecoder().decode([SerialPortInfo].self, from: Data(json.utf8)) == ports)
        #expect(ports[0].usb?.vendorProduct == "2341:0043")
    }

    @Test func missingPortIsNotFoundFromEveryBackend() {
        let path = "/dev/ttyUSB-hb-missing"
        let openers: [() throws -> Void] = [
            { _ = try openTransport(path: path) },
            { _ = try SerialPort(path: path) },
            { _ = try PosixTTY(path: path) },
        ]
        for open in openers {
            do {
                try open()
                Issue.record("opened a missing port")
            } catch let error as TransportError {
                #expect(error.kind == .notFound)
                #expect(error.code == ENOENT)
                #expect(error.description.hasPrefix("\(path): no such port"))
                #expect(error.hint?.contains("haptic ports") == true)
            } catch {
                Issue.record("not a TransportError: \(error)")
            }
        }
    }

    @Test func nonTerminalIsNotASerialPort() {
        #expect(errorKind { _ = try openTransport(path: "/dev/null") } == .notASerialPort)
    }

    @Test func errnoMapsToWhatTheUserCanDo() {
        func kind(_ code: Int32, opening: Bool) -> TransportError.Kind {
            TransportError(errno: code, operation: "open", name: "/dev/x", opening: opening).kind
        }
        #expect(kind(ENOENT, opening: true) == .notFound)
        #expect(kind(ENXIO, opening: true) == .notFound)
        #expect(kind(ENODEV, opening: true) == .notFound)
        #expect(kind(EACCES, opening: true) == .permissionDenied)
        #expect(kind(EPERM, opening: true) == .permissionDenied)
        #expect(kind(EBUSY, opening: true) == .busy)
        #expect(kind(EWOULDBLOCK, opening: true) == .busy)
        #expect(kind(ENOTTY, opening: true) == .notASerialPort)
        #expect(kind(EIO, opening: false) == .disconnected)
        #expect(kind(ENXIO, opening: false) == .disconnected)
        #expect(kind(ENODEV, opening: false) == .disconnected)
        #expect(kind(EPIPE, opening: false) == .disconnected)
        #expect(kind(EINVAL, opening: false) == .system)
        let denied = TransportError(errno: EACCES, operation: "open", name: "/dev/ttyACM0", opening: true)
        #if os(Linux)
            #expect(denied.hint?.contains("dialout") == true)
        #endif
        #expect(denied.description.hasPrefix("/dev/ttyACM0: permission denied (open: Permission denied)"))
    }

    /// A native UART that libserialport lists and that opens here (ttyS0 in a VM): configure it
    /// both ways, read with a short timeout, close, and leave no descriptor behind.
    @Test func nativePortOpensConfiguresAndCloses() throws {
        let candidates = try listSerialPorts().filter { $0.connection == .native }
        guard let port = candidates.first(where: { (try? SerialPort(path: $0.path))?.close() != nil }) else {
            return  // no usable native port on this machine
        }
        let before = descriptors(withTargetPrefix: port.path)
        #expect(try transportBackend(forPath: port.path) == .libserialport)
        for flow in SerialConfiguration.FlowControl.allCases {
            let transport = try openTransport(path: port.path, configuration: SerialConfiguration(baudRate: 500_000, flowControl: flow))
            #expect(transport is SerialPort)
            #expect(descriptors(withTargetPrefix: port.path) == before + 1)
            try transport.discardInput()
            _ = try transport.read(maxCount: 64, timeout: 0.02)
            // Exclusive: a second open of the same port is refused.
            #expect(errorKind { _ = try SerialPort(path: port.path) } == .busy)
            transport.close()
            #expect(errorKind { _ = try transport.read(maxCount: 1, timeout: 0) } == .closed)
        }
        #expect(descriptors(withTargetPrefix: port.path) == before)
    }
}
