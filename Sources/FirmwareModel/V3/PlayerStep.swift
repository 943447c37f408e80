import HapticProtocol

/// One step of one player (firmware-protocol/PROTOCOL-3.md 3.8 step 5): gain, advance, source
/// sample, and the player's amp_i and sharp_i (3.6).
extension Player {
    /// What a player gives its channel in one step.
    struct StepOutput: Sendable {
        var amplitude: UInt8 = 0
        var sharpness: UInt8 = 0
        /// amp_i > 0 (3.6).
        var contributes: Bool { amplitude > 0 }
        /// This step is one of its brake steps (3.6's brake rule).
        var brake = false
        /// Its play ended in this step.
        var end: End?
    }

    /// 3.7: S, the most the gain moves in one step: ceil(256 / R), 256 when R = 0.
    static func fadeStep(fadeTicks: UInt8) -> UInt32 {
        fadeTicks == 0 ? 256 : (256 + UInt32(fadeTicks) - 1) / UInt32(fadeTicks)
    }

    /// 1.11: m' = m + (m >> 7).
    static func scaleFactor(_ m: UInt8) -> UInt32 { UInt32(m) + UInt32(m >> 7) }

    /// Frozen at tick n: paused, or in a seek's fade, which ends at its tick.
    mutating func isFrozen(at n: UInt32) -> Bool {
        if let until = frozenUntil, Int32(bitPattern: n &- until) >= 0 { frozenUntil = nil }
        return paused || frozenUntil != nil
    }

    /// Device tick n for a PLAYING or BRAKING player: `duckGain` is D_i (3.6), `fadeStep` S (3.7),
    /// `brakeTicks` its channel's B.
    mutating func step(at n: UInt32, duckGain: UInt32, fadeStep: UInt32, brakeTicks: UInt16) -> StepOutput {
        if state == .braking {
            brakeLeft -= 1
            if brakeLeft <= 0 { free() }
            return StepOutput(brake: true)
        }
        let frozen = isFrozen(at: n)
        let target = frozen || muted ? 0 : duckGain
        gain = target >= gain ? gain + min(fadeStep, target - gain) : gain - min(fadeStep, gain - target)
        if !frozen {
            if let end = isStream ? advanceStream() : advance() {
                return StepOutput(brake: brakeFromHere(brakeTicks), end: end)
            }
            held = current
        }
        let amplitude = (UInt32(held.amplitude) * Self.scaleFactor(scale) * gain + 32768) >> 16
        let sharpness = hasSharpness ? UInt8(clamping: Int(held.sharpness) + Int(offset)) : 0
        return StepOutput(amplitude: UInt8(amplitude), sharpness: sharpness)
    }

    /// 3.4: the position's advance, then the instructions of program ticks done + 1 ... p; an
    /// iteration ends at its end tick E (L, or T on the last), the program starting again from
    /// tick 0 while iterations are left. Returns `.finished` when the play ends.
    private mutating func advance() -> End? {
        if fresh {
            fresh = false
        } else {
            phase += UInt32(rate)
            position += phase >> 8
            phase &= 255
        }
        while true {
            let last = loops == 1
            let end = Int64(last ? total : loopEnd)
            var next = done + 1
            while next <= Int64(position) && next < end {
                let sample = interpreter.step()
                current = (sample.amplitude, sample.sharpness)
                next += 1
            }
            done = next - 1
            if Int64(position) < end { return nil }
            iterations += 1
            if last || total == 0 { return .finished }
            if loops > 1 { loops -= 1 }
            position -= UInt32(end)
            interpreter.restart()
            done = -1
        }
    }

    /// 3.12: the stream plays at 1x, once: one interpreter step; its END or a fetch's fault ends it.
    private mutating func advanceStream() -> End? {
        let sample = interpreter.step()
        guard interpreter.mode == .playing else {
            let error = interpreter.error
            iterations = error == nil ? 1 : 0
            return error.map { .fault($0.rawValue) } ?? .finished
        }
        position = interpreter.tick &- 1
        current = (sample.amplitude, sample.sharpness)
        return nil
    }
}
