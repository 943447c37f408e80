import FirmwareModel
import Foundation
import HapticProtocol
import HapticTransport
import Testing

@testable import HapticVirtualDevice

/// The virtual device on its own, through a raw client on the pty: the clock, the UART model,
/// clients coming and going.
@Suite(.serialized) struct VirtualDeviceTests {
    /// Reads frames from `transport` until `matching` returns a message or `timeout` passes.
    static func await<T>(_ transport: any Transport, timeout: Double, _ matching: (Message) -> T?) throws -> T? {
        var decoder = FrameDecoder()
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            for case .success(let frame) in decoder.push(try transport.read(maxCount: 256, timeout: 0.005)) {
                if let message = try? Message(frame: frame), let value = matching(message) { return value }
            }
        }
        return nil
    }

    @Test func ticksFollowTheMonotonicClockWithoutDrift() throws {
        let device = try VirtualDevice()
        device.start()
        defer { device.stop() }
        _ = device.waitForTick(5, timeout: 1)
        let startTick = device.now, start = monotonicSeconds()
        var lags: [Double] = []
        for _ in 0..<5 {
            Thread.sleep(forTimeInterval: 0.1)
            let ticks = Double(device.now &- startTick), seconds = monotonicSeconds() - start
            lags.append(seconds * 1000 - ticks)
        }
        // 1 kHz: never ahead of the monotonic clock (beyond the tick in progress at either end);
        // behind by at most a few ticks at some sample (on a quiet machine every sample is within
        // two; a loaded one may hold the device thread back for a moment); and after half a second
        // within 5 % (a clock that rounded each tick's wait up, or ran 1.1 ms ticks, is far outside).
        #expect(lags.allSatisfy { $0 >= -2 }, "\(lags)")
        #expect(lags.min()! <= 5, "\(lags)")
        #expect(lags.last! <= 25, "\(lags)")
    }

    @Test func bytesTakeTheirUARTTimeBothWays() throws {
        // 9600 baud: a 12-byte PING and its 16-byte PONG spend 29.2 ms on the line.
        let device = try VirtualDevice(options: VirtualDevice.Options(baudRate: 9600))
        device.start()
        defer { device.stop() }
        let client = try openTransport(path: device.path)
        defer { client.close() }
        Thread.sleep(forTimeInterval: 0.05)
        try client.discardInput()
        let ping = try Message.ping(Message.Ping(echo: 77)).encoded(sequence: 0)
        #expect(ping.count == 12)
        var roundTrips: [Double] = []
        var subticks: Set<UInt16> = []
        for _ in 0..<5 {
            let sent = monotonicSeconds()
            try client.write(ping, timeout: 1)
            let pong = try Self.await(client, timeout: 1) { message -> Message.Pong? in
                if case .pong(let pong) = message { return pong }
                return nil
            }
            roundTrips.append(monotonicSeconds() - sent)
            #expect(pong?.echo == 77)
            if let pong { subticks.insert(pong.subtick) }
            Thread.sleep(forTimeInterval: 0.0037)
        }
        let line = Double(12 + 16) * 10 / 9600
        #expect(roundTrips.allSatisfy { $0 >= line })
        #expect(roundTrips.min()! < line + 0.004)
        // The subtick is measured: PINGs sent at different phases of the tick report different fractions.
        #expect(subticks.count > 1)
    }

    @Test func clientsComeAndGo() throws {
        let device = try VirtualDevice()
        device.start()
        defer { device.stop() }
        let hello = try Message.hello(Message.Hello()).encoded(sequence: 1)
        for round in 0..<3 {
            let client = try openTransport(path: device.path)
            try client.write([0] + hello, timeout: 1)
            let info = try Self.await(client, timeout: 1) { message -> Message.Info? in
                if case .info(let info) = message { return info }
                return nil
            }
            #expect(info?.deviceID == VirtualDevice.deviceID, "round \(round)")
            client.close()
            // No client: the device keeps ticking, treating the hangup as silence.
            let before = device.now
            Thread.sleep(forTimeInterval: 0.05)
            #expect(Int(device.now &- before) >= 40)
        }
        #expect(device.counters.boots == 1)
    }

    @Test func rebootSendsResetAndStartsTicksAgain() throws {
        let device = try VirtualDevice()
        device.start()
        defer { device.stop() }
        let client = try openTransport(path: device.path)
        defer { client.close() }
        _ = device.waitForTick(200, timeout: 1)
        device.reboot(reason: .hardwareWatchdog)
        let reset = try Self.await(client, timeout: 1) { message -> Message.Reset? in
            // The boot's own RESET (power-on, boot 0) may still wait in the pty: skip it.
            if case .reset(let reset) = message, reset.bootCount == 1 { return reset }
            return nil
        }
        #expect(reset?.reason == .hardwareWatchdog)
        #expect(reset?.bootCount == 1)
        #expect(device.now < 200)
        #expect(device.counters.boots == 2)
    }
}
