import ArgumentParser
import Foundation
import HapticTransport
import SerialBridge

/// `haptic ports [--json]`: the serial ports present, with USB identity where there is one.
/// Pseudo-terminals (a virtual device's port) are not listed: the OS does not enumerate them.
struct Ports: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ports",
        abstract: "List serial ports: path, transport (native/usb/bluetooth), USB vendor:product, manufacturer, product, serial number."
    )

    @Flag(help: "Write one JSON document (schema haptic-ports/2, docs/cli.md) instead of a table.")
    var json = false

    func run() throws {
        let ports: [SerialPortInfo]
        do {
            ports = try listSerialPorts()
        } catch {
            printError(error.description)
            throw ExitCode(1)
        }
        let report = Report(ports: ports)
        if json {
            emit(try reportJSON(report))
            return
        }
        guard !report.ports.isEmpty else {
            emit("No serial ports found. (Plug in the board; a virtual device's pseudo-terminal is not listed.)")
            return
        }
        let rows =
            [["PATH", "TRANSPORT", "USB ID", "DESCRIPTION"]]
            + report.ports.map { port in
                [port.path, port.connection.rawValue, port.usb?.vendorProduct ?? "-", details(port)]
            }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let padded = (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            emit((padded + [row[3]]).joined(separator: "  "))
        }
    }

    /// Description, then the USB strings libserialport's description leaves out.
    private func details(_ port: SerialPortInfo) -> String {
        var parts = [port.description]
        if let usb = port.usb {
            if let manufacturer = usb.manufacturer { parts.append("by \(manufacturer)") }
            if let product = usb.product, product != port.description { parts.append("(\(product))") }
            if let serial = usb.serialNumber { parts.append("serial \(serial)") }
        }
        if let address = port.bluetoothAddress { parts.append("address \(address)") }
        return parts.joined(separator: " ")
    }
}

/// One line on standard error.
private func printError(_ message: String) {
    FileHandle.standardError.write(Data("haptic ports: \(message)\n".utf8))
}
