import AVREmulator
import FirmwareModel

/// What the Swift model does with the bytes the simulated board received: each byte is fed to
/// `DeviceModel` before the device step of the tick in which the board received it (PROTOCOL.md
/// 2.3), so the model's bytes out and samples are what the board must have produced.
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
            while next < input.count && Int((input[next].cycle - timerStart) / cyclesPerTick) <= tick {
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
