import ArgumentParser
import HapticTransport

/// `--baud`, shared by every command that talks to a device, with one default (the reference
/// firmware's rate) and one rule.
struct LineOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Line rate in baud, \(SerialConfiguration.minimumBaudRate) or more; the reference firmware runs at \(SerialConfiguration.referenceBaudRate). The virtual device models its UART at this rate.",
            valueName: "N"))
    var baud: Int = SerialConfiguration.referenceBaudRate

    func validate() throws {
        guard baud >= SerialConfiguration.minimumBaudRate else {
            throw ValidationError(
                "--baud \(baud) is too low: the protocol's time limits need at least \(SerialConfiguration.minimumBaudRate) baud (the reference firmware runs at \(SerialConfiguration.referenceBaudRate))"
            )
        }
    }
}
