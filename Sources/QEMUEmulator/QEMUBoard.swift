import FirmwareModel
import Foundation
import HapticTransport

/// The BBC micro:bit firmware (hardware/firmware/boards/microbit) running in QEMU's `microbit`
/// machine (nRF51822, Cortex-M0), as a child process: its UART0 on a pair of FIFOs, its step
/// records (`StepRecord`, sink.h) on QEMU's standard output.
///
/// Real time (`lockstep` false): QEMU runs on the host's clock; the board ticks at 1 kHz of wall
/// time, as `haptic emulate --mcu cortex-m` serves it. Lockstep: each step waits for the
/// harness's grant (`run(steps:)`) and comes after every byte sent before it, so tests run as fast
/// as the host allows and the board never runs ahead of them, as simavr's `run(until:)` does for
/// the ATmega328P. With `icountShift`, QEMU counts instructions (`-icount shift=N,sleep=off`:
/// each takes 2^N ns of the board's time, idle time is skipped), so the timer's counts around a
/// step measure instructions (`haptic profile --mcu cortex-m`).
///
/// Not thread-safe: one owner drives it.
public final class QEMUBoard {
    /// The QEMU machine and what `haptic emulate --mcu` calls it.
    public static let machine = "microbit"
    /// The board's tick timer runs at 16 MHz (nRF51 TIMER0, prescaler 0): step costs are in its counts.
    public static let timerHz = 16_000_000
    public static let ticksPerSecond = 1_000

    public let firmwarePath: String
    public let lockstep: Bool
    /// `-icount shift=N`: every instruction takes 2^N ns of the board's time (nil: the host's clock).
    public let icountShift: Int?
    private let process: Process
    private let directory: String
    private let uartIn: PosixTTY
    private let uartOut: PosixTTY
    private let recordPipe: PosixTTY
    private let grants: FileHandle
    private var recordBytes: [UInt8] = []
    private var unread: [UInt8] = []

    /// Every step the board ran, in order.
    public private(set) var steps: [StepRecord] = []
    /// Every byte handed to the board's UART, in order.
    public private(set) var inputLog: [UInt8] = []
    /// Every byte the board sent, in order.
    public private(set) var outputLog: [UInt8] = []

    public init(firmware path: String, lockstep: Bool = false, icountShift: Int? = nil) throws(QEMUBoardError) {
        guard let qemu = Self.executable("qemu-system-arm") else {
            throw .launch("qemu-system-arm not found on PATH (Debian: apt-get install -y qemu-system-arm)")
        }
        firmwarePath = path
        self.lockstep = lockstep
        self.icountShift = icountShift
        directory = NSTemporaryDirectory() + "hapticbridge-qemu-\(getpid())-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in ["uart.in", "uart.out"] { mkfifo(directory + "/" + name, 0o600) }
        // O_RDWR: opening a FIFO this way never waits for the other end, and never reads its end.
        uartIn = try Self.adopt(directory + "/uart.in")
        uartOut = try Self.adopt(directory + "/uart.out")
        process = Process()
        var arguments = [
            "-M", Self.machine, "-display", "none", "-monitor", "none", "-nodefaults", "-kernel", path,
            "-chardev", "pipe,id=uart,path=\(directory)/uart", "-serial", "chardev:uart",
            "-semihosting-config", "enable=on,target=native,arg=\(Self.machine)" + (lockstep ? ",arg=lockstep" : ""),
        ]
        if let shift = icountShift { arguments += ["-icount", "shift=\(shift),sleep=off"] }
        // The board dies with the process that started it, even if that one is killed.
        if let setpriv = Self.executable("setpriv") {
            process.executableURL = URL(fileURLWithPath: setpriv)
            process.arguments = ["--pdeathsig", "KILL", qemu] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: qemu)
            process.arguments = arguments
        }
        let input = Pipe(), output = Pipe()
        // Grants are polled (main.c): a read of QEMU's input must not block.
        let reading = input.fileHandleForReading.fileDescriptor
        _ = fcntl(reading, F_SETFL, fcntl(reading, F_GETFL) | O_NONBLOCK)
        process.standardInput = input
        process.standardOutput = output
        _ = FileManager.default.createFile(atPath: directory + "/qemu.log", contents: nil)
        process.standardError = FileHandle(forWritingAtPath: directory + "/qemu.log")
        do {
            try process.run()
        } catch {
            throw .launch("cannot start \(qemu): \(error)")
        }
        grants = input.fileHandleForWriting
        let records = dup(output.fileHandleForReading.fileDescriptor)
        _ = fcntl(records, F_SETFL, fcntl(records, F_GETFL) | O_NONBLOCK)  // PosixTTY polls, then reads what is there
        recordPipe = PosixTTY(adopting: records, name: "QEMU standard output")
        try? output.fileHandleForReading.close()
    }

    deinit {
        stop()
    }

    /// Ends QEMU (SIGTERM; SIGKILL if it is still there after a second) and removes its FIFOs.
    public func stop() {
        try? grants.close()
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(1)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        for link in [uartIn, uartOut, recordPipe] { link.close() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// What QEMU wrote to its standard error (warnings, why it stopped).
    public var log: String {
        (try? String(contentsOfFile: directory + "/qemu.log", encoding: .utf8)) ?? ""
    }

    /// Hands bytes to the board's UART (QEMU feeds them to the firmware as it reads them).
    public func send(_ bytes: [UInt8]) throws(QEMUBoardError) {
        guard !bytes.isEmpty else { return }
        do {
            try uartIn.write(bytes, timeout: 5)
        } catch {
            throw .stopped("its UART did not take \(bytes.count) bytes: \(error)")
        }
        inputLog += bytes
    }

    /// Reads what the board produced so far: step records and UART bytes, waiting up to
    /// `timeout` seconds for a record. Returns the number of new steps.
    @discardableResult
    public func pump(timeout: Double = 0) throws(QEMUBoardError) -> Int {
        let before = steps.count
        do {
            let bytes = try recordPipe.read(maxCount: 8 * 1024, timeout: timeout)
            recordBytes += bytes
            while recordBytes.count >= StepRecord.size {
                guard let record = StepRecord(recordBytes.prefix(StepRecord.size)) else {
                    throw QEMUBoardError.stopped("its step records are out of step (\(recordBytes.prefix(8)))")
                }
                steps.append(record)
                recordBytes.removeFirst(StepRecord.size)
            }
            // Bytes the board sent before a record are in the FIFO once the record is read.
            while true {
                let sent = try uartOut.read(maxCount: 4096, timeout: 0)
                if sent.isEmpty { break }
                outputLog += sent
                unread += sent
            }
        } catch let error as QEMUBoardError {
            throw error
        } catch {
            throw .stopped("QEMU ended (\(error)): \(log.suffix(300))")
        }
        return steps.count - before
    }

    /// The bytes the board sent since the last call.
    public func takeOutput() -> [UInt8] {
        defer { unread.removeAll() }
        return unread
    }

    /// Lockstep: lets the board run `count` more steps, each after every byte sent so far, and
    /// waits until it has (fails after `timeout` seconds without a step).
    public func run(steps count: Int, timeout: Double = 20) throws(QEMUBoardError) {
        precondition(lockstep, "run(steps:) needs a lockstep board")
        let target = steps.count + count
        var granted = 0
        // Each grant also says how many bytes the UART was given so far: the board takes them all
        // before the first step of the grant (main.c).
        let sent = UInt16(truncatingIfNeeded: inputLog.count)
        while granted < count {
            let grant = min(255, count - granted)
            grants.write(Data([UInt8(grant), UInt8(sent & 0xFF), UInt8(sent >> 8)]))
            granted += grant
        }
        var quiet = Date()
        while steps.count < target {
            if try pump(timeout: 0.05) > 0 { quiet = Date() }
            if Date().timeIntervalSince(quiet) > timeout {
                throw .stopped("no step for \(timeout) s (\(steps.count) of \(target) run)")
            }
        }
    }

    /// Whether QEMU still runs.
    public var isRunning: Bool { process.isRunning }

    /// QEMU's process (SIGSTOP and SIGCONT on it stand for a host that does not give it the CPU).
    public var processIdentifier: Int32 { process.processIdentifier }

    private static func adopt(_ path: String) throws(QEMUBoardError) -> PosixTTY {
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .launch("cannot open \(path): errno \(errno)") }
        return PosixTTY(adopting: fd, name: path)
    }

    /// `name` on PATH (or in /usr/bin), or nil.
    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") + ["/usr/bin"] where access("\(folder)/\(name)", X_OK) == 0 {
            return "\(folder)/\(name)"
        }
        return nil
    }
}

/// One device step as the board's output stage recorded it (hardware/firmware/boards/microbit/sink.h).
public struct StepRecord: Sendable, Hashable {
    static let size = 8
    static let mark: UInt8 = 0xB5

    public var sample: OutputSample
    /// Received bytes the protocol handler took between the previous step and this one.
    public var bytesTaken: Int
    /// Board timer counts (16 MHz) from the step's start to its hand-off to the output stage.
    public var stepTimerCounts: Int

    init?(_ bytes: some Collection<UInt8>) {
        let b = Array(bytes)
        guard b.count == Self.size, b[3] == Self.mark else { return nil }
        sample = OutputSample(amplitude: b[0], sharpness: b[1], flags: b[2])
        bytesTaken = Int(b[4]) | Int(b[5]) << 8
        stepTimerCounts = Int(b[6]) | Int(b[7]) << 8
    }
}
