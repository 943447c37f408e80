import AVREmulator
import FirmwareModel

/// What the Swift model does with the bytes the simulated board received: each byte is fed to
/// `DeviceModel` before the first device step triggered after the board received it
/// (`AVRBoard.deviceTick(ofByteAt:timerStart:)`, PROTOCOL.md 2.3), so the model's bytes out and
/// samples are what the board must have produced.
struct ModelReplay {
    var bytes: [UInt8]
    var samples: [OutputSample]
    /// Input bytes fed; every one the board received when the replay covers its whole log.
    var consumed: Int

    init(board: AVRBoard, timerStart: UInt64, configuration: DeviceModel.Configuration) {
        let cyclesPerTick = board.cyclesPerTick
        let input = board.inputLog
        // The last ticks may still be in progress on the board: leave them out.
        let ticks = Int((board.cycle - timerStart) / cyclesPerTick) - 3
        var model = DeviceModel(configuration: configuration)
        bytes = model.takeOutput()
        samples = []
        var next = 0
        for tick in 0..<max(0, ticks) {
            var arrived: [UInt8] = []
            while next < input.count && board.deviceTick(ofByteAt: input[next].cycle, timerStart: timerStart) <= tick {
                arrived.append(input[next].value)
                next += 1
            }
            bytes += model.receive(arrived)
            let step = model.step()
            bytes += step.sent
            samples.append(step.sample)
        }
        consumed = next
        inputCount = input.count
    }

    /// How many bytes the board received in all.
    var inputCount: Int
}
