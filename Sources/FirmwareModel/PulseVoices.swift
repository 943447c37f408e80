import HapticProtocol

/// The transient kernel's voices (firmware-protocol/PROTOCOL.md 1.10): up to 4 rectangular
/// pulses at once, oldest first.
///
/// A voice keeps its start tick and length rather than a countdown: it is active at tick n while
/// `n - start < length`. That is the firmware's "left decreases every tick, voices reaching 0
/// are removed" (1.8 step 8) without touching the voices every tick: ended voices are skipped by
/// `combine` and dropped when the next pulse starts, which is when 1.10 needs them gone.
struct PulseVoices: Sendable {
    struct Voice: Sendable {
        var start: UInt32
        var amplitude: UInt8
        var sharpness: UInt8
        var length: UInt8

        /// Wrapping subtraction: correct for pulses that started near tick 2^32 - 1, too.
        func isActive(at tick: UInt32) -> Bool { tick &- start < UInt32(length) }
    }

    private var voices = FourSlots(filler: Voice(start: 0, amplitude: 0, sharpness: 0, length: 0))

    /// PULSE at `tick`: a rectangle of `amplitude` for `Instruction.pulseLength(sharpness:)`
    /// ticks from this one. Ended voices go first; with 4 still active, the oldest gives way. The
    /// new pulse is the newest voice, even with amplitude 0.
    mutating func start(amplitude: UInt8, sharpness: UInt8, at tick: UInt32) {
        voices.removeAll { !$0.isActive(at: tick) }
        if voices.isFull { voices.removeFirst() }
        voices.append(
            Voice(
                start: tick, amplitude: amplitude, sharpness: sharpness,
                length: Instruction.pulseLength(sharpness: sharpness)))
    }

    /// Combine at `tick` (1.11): the greatest amplitude of the channel and the active voices,
    /// with the sharpness of its source. `>=` makes a pulse beat the channel on ties, and a newer
    /// pulse beat an older one (voices are visited oldest first).
    func combine(amplitude: UInt8, sharpness: UInt8, at tick: UInt32) -> (amplitude: UInt8, sharpness: UInt8) {
        var result = (amplitude: amplitude, sharpness: sharpness)
        for index in 0..<voices.count {
            let voice = voices[index]
            if voice.isActive(at: tick) && voice.amplitude >= result.amplitude {
                result = (voice.amplitude, voice.sharpness)
            }
        }
        return result
    }

    mutating func removeAll() {
        voices.removeAll()
    }
}
