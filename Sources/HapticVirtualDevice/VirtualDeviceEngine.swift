import FirmwareModel
import Foundation
import HapticProtocol
import HapticTransport

/// A device model (`ServedModel`) served on a real pseudo-terminal: any serial client opens
/// `path` like a board's port. `VirtualDevice` serves protocol 2.0's `DeviceModel` with it,
/// `VirtualDevice3` protocol 3.0's `DeviceModel3`.
///
/// - Ticks run in real time at the device rate (1 kHz): step k is due at `start + k / rate` on the
///   monotonic clock (`TickSchedule`, with a 3.0 device's tick trim), and a late thread catches up
///   by running the overdue steps back to back, so there is no drift.
/// - Both directions behave like a UART at `baudRate` (10 bit times per byte): a byte from the host
///   reaches the model when its last bit would have arrived, at the tick that follows; bytes the
///   model sends go out one byte time apart. A PONG's subtick is the elapsed fraction of the
///   tick when the PING's last byte arrived.
/// - Every step's output is recorded (the last `recordLimit` of them) for tests and `haptic play`.
/// - Clients may come and go: with none connected the pty reports a hangup, which the device
///   treats as silence (its watchdog then stops a play, as on a board whose host vanished).
public class VirtualDeviceEngine<Model: ServedModel>: @unchecked Sendable {
    public typealias Options = VirtualDeviceOptions

    public let options: Options
    /// The pty's slave path: what a client opens.
    public var path: String { pty.slavePath }

    let pty: PseudoTerminal
    let lock = NSLock()
    var model: Model
    var hooks: VirtualDeviceHooks
    private var samples: [Model.Sample] = []
    /// Device tick of `samples[0]` (ticks restart at 0 after a reboot).
    private var firstRecordedTick: UInt32 = 0
    private var rx: UARTLine
    private var tx: UARTLine
    private var state = Counters()
    private var rebootPending = false
    private let loop = LoopThread()
    /// Host seconds the tick in progress lasts (its trim applied), once the thread runs.
    private(set) var tickLength: Double?

    /// Traffic and timing figures.
    public struct Counters: Sendable, Hashable {
        public var bytesIn = 0
        public var bytesOut = 0
        public var steps = 0
        /// Most overdue steps run back to back in one catch-up (thread scheduling lateness).
        public var longestCatchUp = 0
        public var boots = 1
    }

    init(model: Model, options: Options) throws(TransportError) {
        self.options = options
        self.model = model
        let lineRate = Int((Double(options.baudRate) * options.speed).rounded())
        rx = UARTLine(baudRate: lineRate)
        tx = UARTLine(baudRate: lineRate)
        hooks = VirtualDeviceHooks(options: options)
        pty = try PseudoTerminal()
    }

    deinit {
        stop()
    }

    /// Starts the device thread (the RESET notice of the boot goes out first).
    public func start() {
        loop.start(name: "virtual-device \(pty.slavePath)") { [self] in run() }
    }

    /// Stops the thread and closes the pty: a connected client sees the port disappear.
    public func stop() {
        loop.stop()
        pty.close()
    }

    /// Boots the model again (as after a reset pin or a crash): slots, stream and configuration are
    /// gone, ticks restart from 0, the recording starts over, and the RESET notice goes out.
    public func reboot(reason: Message.Reset.Reason = .software) {
        lock.withLock {
            let lastTick = model.now
            model = model.rebooted(reason: reason)
            samples.removeAll()
            firstRecordedTick = 0
            state.boots += 1
            rebootPending = true
            hooks.boot(reason: reason, endOfLast: lastTick)
        }
    }

    // MARK: Observation

    /// The device tick counter (`now`: the next step's index).
    public var now: UInt32 { lock.withLock { model.now } }

    public var counters: Counters { lock.withLock { state } }

    /// Recorded outputs of ticks `start ..< start + count` (fewer if not all recorded yet or any more).
    public func samples(from start: UInt32, count: Int) -> [Model.Sample] {
        lock.withLock {
            let offset = Int(Int64(start) - Int64(firstRecordedTick))
            guard offset >= 0, offset < samples.count, count > 0 else { return [] }
            return Array(samples[offset..<min(samples.count, offset + count)])
        }
    }

    /// Waits (polling every millisecond) until tick `tick` has been output, up to `timeout` seconds.
    public func waitForTick(_ tick: UInt32, timeout: Double) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if Int32(bitPattern: now &- tick) > 0 { return true }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return false
    }

    /// A copy of the model as it is now (for inspection in tests).
    public var modelSnapshot: Model { lock.withLock { model } }

    // MARK: The device thread

    private func run() {
        nameCurrentThread("virtual-device")
        let period = ClockDrift.tickPeriod(rate: Double(model.tickRate) * options.speed, ppm: options.driftPPM)
        var schedule = TickSchedule(origin: monotonicSeconds(), period: period)
        lock.withLock {
            transmit(model.takeOutput(), at: schedule.origin)
        }
        while !loop.isStopping {
            let now = monotonicSeconds()
            if now < schedule.next {
                let nextOut = lock.withLock { tx.nextDue } ?? .infinity
                let wait = min(schedule.next, nextOut) - now
                waitForInput(seconds: min(wait, 0.005))
                receive(timeout: 0)
                sendDue()
                continue
            }
            // Drain what has arrived, then run every overdue step with the bytes of its tick.
            receive(timeout: 0)
            var ran = 0
            lock.withLock {
                if rebootPending {
                    rebootPending = false
                    rx.clear()
                    tx.clear()
                    schedule = TickSchedule(origin: now, period: period)
                    transmit(model.takeOutput(), at: now)
                    return
                }
                while schedule.next <= now {
                    let stepTime = schedule.next
                    for delivered in rx.deliver(upTo: stepTime) {
                        hooks.received(delivered.byte, tick: model.now)
                        let reply = model.receive(CollectionOfOne(delivered.byte), subtick: schedule.subtick(at: delivered.due))
                        transmit(reply, at: delivered.due)
                    }
                    let tick = model.now
                    let result = model.servedStep()
                    record(result.sample)
                    transmit(result.sent, at: stepTime, tick: tick)
                    schedule.advance(trimPPM: model.trimPPM)
                    ran += 1
                    state.steps += 1
                }
                tickLength = schedule.next - schedule.previous
                state.longestCatchUp = max(state.longestCatchUp, ran)
            }
            sendDue()
        }
    }

    /// Waits until the client sends something or `seconds` pass, with microsecond resolution
    /// (poll(2) rounds to milliseconds, which would blur the UART timing and the tick schedule).
    /// With no client the pty reports a hangup at once: then it just sleeps.
    private func waitForInput(seconds: Double) {
        guard seconds > 0 else { return }
        let ready = try? pty.master.withDescriptor { fd -> Bool in
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            var timeout = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
            guard PrecisePoll.ppoll(&descriptor, 1, &timeout, nil) >= 0 else { return false }
            let hangup = descriptor.revents & Int16(POLLHUP | POLLERR) != 0
            return !(hangup && descriptor.revents & Int16(POLLIN) == 0)
        }
        if ready != true {
            var pause = timespec(tv_sec: 0, tv_nsec: Int(min(seconds, 0.001) * 1e9))
            nanosleep(&pause, nil)
        }
    }

    /// Reads what the client sent (waiting up to `timeout`) onto the receive line. No client, or
    /// one that left: silence.
    private func receive(timeout: Double) {
        do {
            let bytes = try pty.master.read(maxCount: 4096, timeout: timeout)
            guard !bytes.isEmpty else { return }
            let arrived = monotonicSeconds()
            lock.withLock {
                state.bytesIn += bytes.count
                for (byte, delay) in hooks.toDevice(bytes) { rx.enqueue(CollectionOfOne(byte), at: arrived + delay) }
            }
        } catch {
            if timeout > 0 { Thread.sleep(forTimeInterval: min(timeout, 0.001)) }
        }
    }

    /// Writes the bytes whose line time is over; lost when no client listens, as on a board.
    private func sendDue() {
        let out = lock.withLock { tx.deliver(upTo: monotonicSeconds()).map(\.byte) }
        guard !out.isEmpty else { return }
        lock.withLock { state.bytesOut += out.count }
        try? pty.master.write(out, timeout: 0.01)
    }

    private func record(_ sample: Model.Sample) {
        if samples.count >= options.recordLimit {
            let drop = max(1, options.recordLimit / 10)
            samples.removeFirst(drop)
            firstRecordedTick &+= UInt32(drop)
        }
        samples.append(sample)
        if let traced = Model.traced(sample) { hooks.record(traced) }
    }

    /// Hands what the model sent to the line, through the faults (under the lock); `tick` is the
    /// device tick the bytes were produced at (the model's `now` by default).
    private func transmit(_ bytes: [UInt8], at time: Double, tick: UInt32? = nil) {
        guard !bytes.isEmpty else { return }
        hooks.sent(bytes, tick: tick ?? model.now)
        for (byte, delay) in hooks.fromDevice(bytes) { tx.enqueue(CollectionOfOne(byte), at: time + delay) }
    }
}

/// ppoll(2): poll with a timespec time-out. glibc declares it only under _GNU_SOURCE, so it is
/// looked up by name (as `PseudoTerminal` does for posix_openpt); macOS has no ppoll and uses
/// poll with a millisecond time-out instead.
enum PrecisePoll {
    #if os(Linux)
        typealias Function = @convention(c) (UnsafeMutablePointer<pollfd>, nfds_t, UnsafePointer<timespec>?, UnsafeRawPointer?) -> CInt
        static let function: Function? = dlsym(dlopen(nil, RTLD_NOW), "ppoll").map { unsafeBitCast($0, to: Function.self) }
    #endif

    static func ppoll(_ fds: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeout: UnsafePointer<timespec>, _ mask: UnsafeRawPointer?) -> CInt {
        #if os(Linux)
            if let function { return function(fds, count, timeout, mask) }
        #endif
        let milliseconds = Int32((Double(timeout.pointee.tv_sec) * 1000 + Double(timeout.pointee.tv_nsec) / 1e6).rounded(.up))
        return poll(fds, count, milliseconds)
    }
}
