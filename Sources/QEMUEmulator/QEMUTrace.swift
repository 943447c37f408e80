import AVREmulator
import FirmwareModel
import Foundation
import HapticProtocol
import HapticTrace

/// The trace of a session on the emulated micro:bit (`haptic emulate --mcu cortex-m --trace`,
/// docs/cli.md "Traces"), and its check against the Swift model. Unlike the ATmega328P's, the
/// samples are the board's own: its output stage records every step (`StepRecord`). Each record
/// also says how many received bytes the step came after, so the model is replayed exactly: those
/// bytes, then one step, record by record. The board must have sent what the model sent and
/// output what it output; the board's frames
/// carry the ticks at which the model sent the same bytes.
public enum QEMUTrace {
    public struct Result {
        public var header: DeviceTrace.Header
        public var records: [DeviceTrace.Record]
        /// Steps whose recorded sample is not the model's.
        public var sampleMismatches: [Int]
        /// Index of the first frame the board sent that the model did not (nil: all equal; a
        /// PONG's subtick is not compared: the model cannot know where in its tick a PING ended).
        public var frameMismatch: Int?
        /// Steps replayed (every record), and received bytes the records account for.
        public var steps: Int
        public var bytesReplayed: Int
    }

    /// The replay of `input` (every byte the board's UART was given) through the model, record by
    /// record, against what the board sent (`output`) and recorded (`steps`); nil without an INFO
    /// from the board (no host said HELLO): its configuration is unknown.
    public static func make(
        source: String, input: [UInt8], output: [UInt8], steps: [StepRecord], faults: String? = nil
    ) -> Result? {
        guard let (configuration, profile) = BoardTrace.configuration(fromOutput: output) else { return nil }
        var model = DeviceModel(configuration: configuration)
        var framesIn = DeviceTrace.FrameSplitter(direction: .in)
        var framesOut = DeviceTrace.FrameSplitter(direction: .out)
        var frames: [DeviceTrace.FrameRecord] = []
        var sent = model.takeOutput()
        // The tick at which the model sent each of its bytes: the board's bytes get the same.
        var sentTicks = [UInt32](repeating: 0, count: sent.count)
        var mismatches: [Int] = []
        var next = 0
        for (index, record) in steps.enumerated() {
            let tick = UInt32(index)
            let arrived = input[next..<min(input.count, next + record.bytesTaken)]
            next += arrived.count
            frames += framesIn.feed(arrived, tick: tick)
            let replies = model.receive(arrived)
            let step = model.step()
            sent += replies + step.sent
            sentTicks += [UInt32](repeating: tick, count: replies.count + step.sent.count)
            if step.sample != record.sample { mismatches.append(index) }
        }
        for (index, byte) in output.enumerated() {
            frames += framesOut.feed(CollectionOfOne(byte), tick: sentTicks.isEmpty ? 0 : sentTicks[min(index, sentTicks.count - 1)])
        }
        let board = BoardTrace.messages(output), replayed = BoardTrace.messages(sent)
        let frameMismatch = (0..<min(board.count, replayed.count)).first { board[$0] != replayed[$0] }
        let header = DeviceTrace.Header(source: source, configuration: configuration, profile: profile, faults: faults)
        let segment = DeviceTrace.Segment(samples: steps.map(\.sample), frames: frames)
        return Result(
            header: header, records: DeviceTrace.records(of: segment, header: header), sampleMismatches: mismatches,
            frameMismatch: frameMismatch, steps: steps.count, bytesReplayed: next)
    }
}
