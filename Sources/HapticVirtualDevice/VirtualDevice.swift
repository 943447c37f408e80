import FirmwareModel
import Foundation
import HapticTransport

/// The Swift device model of protocol 2.0 (`FirmwareModel.DeviceModel`, bit-exact with the C
/// firmware core) served on a real pseudo-terminal (`VirtualDeviceEngine`: real-time ticks, the
/// UART, faults, trace, reboot): any serial client opens `path` like a board's port.
public final class VirtualDevice: VirtualDeviceEngine<DeviceModel>, @unchecked Sendable {
    /// The device ID a virtual device reports ("VDEV").
    public static let deviceID: UInt32 = 0x5645_4456

    /// A device of `options.profile` with `options.configuration` (`identifiedConfiguration`).
    public init(options: Options = Options()) throws(TransportError) {
        try super.init(model: DeviceModel(configuration: options.identifiedConfiguration), options: options)
    }

    /// The configuration the model runs (with the identity filled in).
    public var deviceConfiguration: DeviceModel.Configuration { lock.withLock { model.configuration } }
}
