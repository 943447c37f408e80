import Foundation
import HapticTransport

/// Serves the emulated micro:bit on a byte link (typically a pseudo-terminal's master end):
/// bytes the host writes go to the board's UART, bytes the board sends go back to the host, and
/// every step record is kept for the trace. The board runs in real time on QEMU's side; this only
/// carries bytes, polling the link every millisecond.
public final class QEMUBoardServer {
    public let board: QEMUBoard
    public let link: any Transport
    /// After `unplug()`: the link is closed, the board runs on without a host.
    public private(set) var isUnplugged = false

    public init(board: QEMUBoard, link: any Transport) {
        self.board = board
        self.link = link
    }

    /// Runs until `keepRunning` returns false (checked every millisecond or so), or QEMU ends.
    public func serve(while keepRunning: () -> Bool) throws(QEMUBoardError) {
        while keepRunning() {
            let fromHost = readHost(timeout: 0.001)
            try board.send(fromHost)
            try board.pump()
            let toHost = board.takeOutput()
            if !toHost.isEmpty && !isUnplugged {
                // A host that is not there (or not reading) loses them, as a real board's output is lost.
                try? link.write(toHost, timeout: 0.05)
            }
            guard board.isRunning else { throw .stopped("QEMU ended: \(board.log.suffix(300))") }
        }
    }

    /// Closes the link: the host's port goes away; the board runs on.
    public func unplug() {
        isUnplugged = true
        link.close()
    }

    /// What the host sent; nothing while no client has the other end open (or after `unplug`).
    private func readHost(timeout: Double) -> [UInt8] {
        guard !isUnplugged else {
            Thread.sleep(forTimeInterval: timeout)
            return []
        }
        do throws(TransportError) {
            return try link.read(maxCount: 4096, timeout: timeout)
        } catch {
            // .disconnected: no client now (a pty between clients); anything else: try again shortly.
            Thread.sleep(forTimeInterval: timeout)
            return []
        }
    }
}
