import FirmwareModel

/// `ModelReplay` for the protocol 3.0 images (make OUTPUT=pwm2, drv2605l-x4): the bytes the board
/// received, frame by frame, into `DeviceModel3` before the device step of the tick in which the
/// board handled each one (`ModelReplay.dueTicks`), and every channel's samples of every step.
public struct ModelReplay3 {
    /// What the model sent: RESET, then replies and notices in order.
    public var bytes: [UInt8]
    /// samples[c][k]: channel c's sample of device tick k.
    public var samples: [[OutputSample]]
    /// Input bytes fed; every one the board received when the replay covers its whole log.
    public var consumed: Int
    /// How many bytes the board received in all.
    public var inputCount: Int

    /// A stage fault the board saw on `channel` before the step of device tick `tick` (`code`; 0: cleared).
    public struct StageFault: Sendable {
        public var tick: Int
        public var channel: Int
        public var code: UInt8

        public init(tick: Int, channel: Int, code: UInt8) {
            self.tick = tick
            self.channel = channel
            self.code = code
        }
    }

    /// `timerStart`: the cycle the tick timer (Timer0) started.
    public init(board: AVRBoard, timerStart: UInt64, configuration: DeviceModel3.Configuration, faults: [StageFault] = []) {
        let input = board.inputLog
        // The last ticks may still be in progress on the board: leave them out.
        let ticks = Int((board.cycle - timerStart) / board.cyclesPerTick) - 3
        var model = DeviceModel3(configuration: configuration)
        bytes = model.takeOutput()
        samples = Array(repeating: [], count: configuration.channels.count)
        var feed = ModelReplay.DueInput(board: board, input: input, timerStart: timerStart)
        for tick in 0..<max(0, ticks) {
            bytes += model.receive(feed.bytes(beforeStep: tick))
            for fault in faults where fault.tick == tick { model.setStageFault(channel: fault.channel, code: fault.code) }
            let step = model.step()
            bytes += step.sent
            for (c, sample) in step.samples.enumerated() { samples[c].append(sample) }
        }
        consumed = feed.next
        inputCount = input.count
    }
}
