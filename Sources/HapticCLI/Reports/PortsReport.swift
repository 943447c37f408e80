import HapticTransport

extension Ports {
    /// What `haptic ports` lists: `--json` encodes it (schema haptic-ports/2, docs/cli.md), the
    /// table is printed from it. Each port is `SerialPortInfo`'s own `Encodable` form, its keys in
    /// snake_case like every report's.
    struct Report: Encodable {
        /// Sorted by path; empty when there are none.
        var ports: [SerialPortInfo]
        let schema = "haptic-ports/2"
    }
}
