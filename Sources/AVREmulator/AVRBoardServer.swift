import Foundation
import HapticTransport

/// Serves a simulated board on a byte link (typically a pseudo-terminal's master end): bytes the
/// host writes go to the firmware's UART, bytes the firmware sends go back to the host.
///
/// Simulated time advances in slices of one tick (16,000 cycles at 16 MHz). In real-time mode
/// each slice is held back until the wall clock reaches it, so the board runs at its true speed
/// and host timeouts mean what they say; bytes from the host enter the UART at the cycle of their
/// arrival and then take their true line time; bytes the board sends reach the host at the end of
/// their slice (at most 1 ms late). Without real time the
/// simulation runs as fast as it can (for tests).
public final class AVRBoardServer {
    public let board: AVRBoard
    public let link: any Transport
    public let realTime: Bool
    /// Bytes carried each way so far.
    public private(set) var bytesToBoard = 0
    public private(set) var bytesFromBoard = 0
    /// Faults applied to the bytes on the link, each direction with its own injector; a delayed
    /// byte holds back the bytes after it. Set before `serve`.
    public var faults: (toBoard: FaultInjector, fromBoard: FaultInjector)?
    /// Every byte the board sent (before any faults), stamped with its cycle, when `keepsOutput`.
    public private(set) var outputLog: [TimedByte] = []
    public var keepsOutput = false
    /// After `unplug()`: the link is closed, the board runs on without a host.
    public private(set) var isUnplugged = false
    private var heldToBoard: [(byte: UInt8, due: Date)] = []
    private var heldToHost: [(byte: UInt8, due: Date)] = []
    /// An Arduino Uno or Nano resets when a host opens its port (DTR, through a capacitor to the
    /// reset pin) and then waits in its bootloader before the firmware runs: with this set, each
    /// time a client opens the link the board is reset and held that many cycles (bytes sent
    /// meanwhile are lost, as the bootloader listens at its own rate). nil: opening does nothing.
    public let resetOnOpen: UInt64?
    /// The board's clock error in ppm (`ClockDrift`), real time only: each cycle takes
    /// 1 / (frequency x (1 + ppm / 10^6)) s of wall time, so the whole board (ticks and UART alike,
    /// as with a resonator off its nominal frequency) runs that far off the host's clock.
    public var driftPPM: Double = 0
    /// Real time: the most the simulation fell behind the wall clock (seconds past a slice's due
    /// time before it ran). Beyond a tick, the board's clock was not the one `driftPPM` describes.
    public private(set) var longestLag = 0.0

    /// Starts `longestLag` over (from the next slice).
    public func resetLongestLag() {
        longestLag = 0
    }
    /// Clients that opened the link so far.
    public private(set) var opens = 0
    private var clientPresent = false

    /// Optiboot's wait after a reset on an Uno: about 1 s (its watchdog time-out).
    public static let unoBootloaderSeconds = 1.0

    public init(board: AVRBoard, link: any Transport, realTime: Bool = true, resetOnOpen: UInt64? = nil) {
        self.board = board
        self.link = link
        self.realTime = realTime
        self.resetOnOpen = resetOnOpen
    }

    /// Serves on a pseudo-terminal and resets the board whenever a client opens its slave end,
    /// holding it `bootloaderCycles` in the bootloader (`resetOnOpen`). A master whose slave has
    /// never been opened cannot tell when it is (Linux: no hang-up until a first client closes), so
    /// the slave is opened and closed once here: from then on "no client" reads as a hang-up.
    public convenience init(board: AVRBoard, pty: PseudoTerminal, realTime: Bool = true, bootloaderCycles: UInt64) {
        let fd = open(pty.slavePath, O_RDWR | O_NOCTTY | O_NONBLOCK)
        if fd >= 0 { close(fd) }
        self.init(board: board, link: pty.master, realTime: realTime, resetOnOpen: bootloaderCycles)
    }

    /// Runs until `keepRunning` returns false (checked once per slice), or the core stops.
    public func serve(while keepRunning: () -> Bool) throws {
        let slice = board.cyclesPerTick
        // Paced on the monotonic clock the host's clock estimates use (wall time may be slewed).
        let start = monotonicSeconds()
        let startCycle = board.cycle
        let frequency = 1 / ClockDrift.tickPeriod(rate: Double(board.frequency), ppm: driftPPM)
        while keepRunning() {
            let target = board.cycle + slice
            let due = start + Double(target - startCycle) / frequency
            let wait = realTime ? max(0, due - monotonicSeconds()) : 0
            let read = try readHost(timeout: wait)
            bytesToBoard += read.count
            let incoming = pass(read, through: \.toBoard, held: &heldToBoard)
            if !incoming.isEmpty {
                // In real time the bytes enter the UART at the cycle of their arrival, not at the
                // slice's start (up to a tick before they were sent: a PONG would then read a
                // device time before its PING left the host, and break the clock's brackets).
                if realTime {
                    let arrival = startCycle + UInt64(max(0, (monotonicSeconds() - start) * frequency))
                    try board.run(until: min(target, max(board.cycle, arrival)))
                }
                board.send(incoming)
            }
            if realTime {
                let rest = due - monotonicSeconds()
                if rest > 0 { Thread.sleep(forTimeInterval: rest) }
            }
            if realTime { longestLag = max(longestLag, monotonicSeconds() - due) }
            try board.run(until: target)
            let output = board.takeOutput()
            if keepsOutput { outputLog += output }
            bytesFromBoard += output.count
            let outgoing = pass(output.map(\.value), through: \.fromBoard, held: &heldToHost)
            if !outgoing.isEmpty { writeHost(outgoing) }
        }
    }

    /// Closes the link: the host's port goes away; the board runs on.
    public func unplug() {
        isUnplugged = true
        link.close()
    }

    /// `bytes` through one direction's faults: what is due now, in order (held bytes first).
    private func pass(
        _ bytes: [UInt8], through direction: WritableKeyPath<(toBoard: FaultInjector, fromBoard: FaultInjector), FaultInjector>,
        held: inout [(byte: UInt8, due: Date)]
    ) -> [UInt8] {
        guard var faults else { return bytes }
        let now = Date()
        for byte in bytes {
            for (value, delay) in faults[keyPath: direction].apply(byte) {
                let due = max(held.last?.due ?? now, now.addingTimeInterval(delay))
                held.append((value, due))
            }
        }
        self.faults = faults
        let ready = held.prefix { $0.due <= now }.count
        defer { held.removeFirst(ready) }
        return held.prefix(ready).map(\.byte)
    }

    /// What the host sent; nothing while no client has the other end open (or after `unplug`).
    private func readHost(timeout: Double) throws -> [UInt8] {
        if isUnplugged {
            if timeout > 0 { Thread.sleep(forTimeInterval: min(timeout, 0.001)) }
            return []
        }
        do throws(TransportError) {
            let bytes = try link.read(maxCount: 4096, timeout: timeout)
            clientOpened()
            return bytes
        } catch {
            switch error.kind {
            case .disconnected, .timedOut:
                if error.kind == .disconnected { clientPresent = false } else { clientOpened() }
                if timeout > 0 { Thread.sleep(forTimeInterval: min(timeout, 0.001)) }
                return []
            default:
                throw error
            }
        }
    }

    /// A client has the link open; if it was not there before, it just opened it (DTR).
    private func clientOpened() {
        guard !clientPresent else { return }
        clientPresent = true
        opens += 1
        if let cycles = resetOnOpen { board.reset(bootloaderCycles: cycles) }
    }

    /// Hands bytes to the host; a host that is not there (or not reading) loses them, as a
    /// real board's output is lost when no one listens.
    private func writeHost(_ bytes: [UInt8]) {
        try? link.write(bytes, timeout: 0.05)
    }
}
