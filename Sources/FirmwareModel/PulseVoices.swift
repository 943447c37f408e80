import HapticProtocol

/// The transient kernel's voices (firmware-protocol/PROTOCOL.md 1.10): up to 4 rectangular
/// pulses at once, oldest first.
struct PulseVoices: Sendable {
    struct Voice: Sendable {
        var amplitude: UInt8
        var sharpness: UInt8
        /// Ticks still to play, the current one included.
        var left: UInt8
    }

    static let count = 4

    private var voices = FourSlots(filler: Voice(amplitude: 0, sharpness: 0, left: 0))

    /// PULSE: a rectangle of `amplitude` for `Instruction.pulseLength(sharpness:)` ticks from
    /// this one. Voices that ended are already gone (`advance`); with 4 still active, the
    /// oldest gives way. The new pulse is the newest voice, even with amplitude 0.
    mutating func start(amplitude: UInt8, sharpness: UInt8) {
        if voices.isFull { voices.removeFirst() }
        voices.append(Voice(amplitude: amplitude, sharpness: sharpness,
                            left: Instruction.pulseLength(sharpness: sharpness)))
    }

    /// Combine (1.11): the greatest amplitude of the channel and the active voices, with the
    /// sharpness of its source. `>=` makes a pulse beat the channel on ties, and a newer pulse
    /// beat an older one (voices are visited oldest first).
    func combine(amplitude: UInt8, sharpness: UInt8) -> (amplitude: UInt8, sharpness: UInt8) {
        var result = (amplitude: amplitude, sharpness: sharpness)
        for index in 0..<voices.count {
            let voice = voices[index]
            if voice.amplitude >= result.amplitude { result = (voice.amplitude, voice.sharpness) }
        }
        return result
    }

    /// Next tick (1.8 step 8): every voice has one tick less; finished voices are removed.
    mutating func advance() {
        voices.updateAndKeep { voice in
            voice.left -= 1
            return voice.left > 0
        }
    }

    mutating func removeAll() {
        voices.removeAll()
    }
}
