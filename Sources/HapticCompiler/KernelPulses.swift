import HapticPattern
import HapticProtocol

/// A transient played by the firmware's pulse kernel: PULSE `amplitude, sharpness` at `tick`,
/// a rectangle of `length` ticks (PROTOCOL.md 1.10).
struct KernelPulse: Hashable, Sendable {
    var tick: Int
    var amplitude: UInt8
    var sharpness: UInt8

    var length: Int { Int(Instruction.pulseLength(sharpness: sharpness)) }
    var end: Int { tick + length }
}

/// What the played pulses show by themselves at each tick (PROTOCOL.md 1.11 without the
/// channel): the greatest pulse amplitude, 0 where none plays, and its sharpness (the newest
/// pulse's on ties). `winner` is the index of that pulse, -1 where none.
struct PulseLayer: Sendable {
    var amplitude: [UInt8]
    var sharpness: [UInt8]
    var winner: [Int32]

    init(_ pulses: [KernelPulse], tickCount n: Int) {
        amplitude = [UInt8](repeating: 0, count: n)
        sharpness = [UInt8](repeating: 0, count: n)
        winner = [Int32](repeating: -1, count: n)
        // In program order: a later pulse replaces an equal one, as the newest voice does.
        for (index, pulse) in pulses.enumerated() {
            for k in pulse.tick..<min(pulse.end, n) where pulse.amplitude >= amplitude[k] {
                amplitude[k] = pulse.amplitude
                sharpness[k] = pulse.sharpness
                winner[k] = Int32(index)
            }
        }
    }
}

/// Which transients become PULSE instructions (docs/compiler.md, "Transients").
///
/// A transient is a PULSE with the transfer of its effective intensity, its sharpness code and
/// start tick round(t0 * rate), unless the kernel cannot play it exactly: its code is 0 (it shows
/// nothing), its rectangle on the renderer's grid is not the kernel's length (rates other than
/// 1000 Hz), 4 earlier pulses still sound (a 5th voice would cut the oldest short), or it ties
/// the amplitude of a continuous event that the renderer lets win, where the channel could only
/// show the continuous event's sharpness by exceeding the tolerance. Those are left to the
/// amplitude channel, whose band then asks for them. A pulse that never decides an
/// output tick (a louder continuous event covers it) costs 3 bytes for nothing and is dropped.
enum KernelPulses {
    static let voices = 4

    static func select(_ target: CompileTarget, profile: ActuatorProfile, tolerance: Int) -> [KernelPulse] {
        let n = target.tickCount
        var pulses: [KernelPulse] = []
        for transient in target.transients {
            let amplitude = profile.amplitudeCode(forIntensity: transient.intensity)
            guard amplitude > 0 else { continue }
            let pulse = KernelPulse(
                tick: transient.startTick(rate: target.rate), amplitude: amplitude,
                sharpness: SharpnessRendering.code(forSharpness: transient.sharpness))
            guard pulse.tick >= 0, pulse.tick < n, transient.lengthTicks(rate: target.rate) == pulse.length else { continue }
            let sounding = pulses.reversed().prefix { $0.tick + 20 > pulse.tick }.filter { $0.end > pulse.tick }
            guard sounding.count < voices else { continue }
            pulses.append(pulse)
        }
        // A pulse that wins a tick where it ties the reference amplitude but not its sharpness
        // (the renderer let a continuous event win a tie in intensity that is a tie in codes)
        // leaves the channel no room above it within the tolerance: the channel plays it instead.
        while true {
            let layer = PulseLayer(pulses, tickCount: n)
            var conflicting = Set<Int>()
            for k in 0..<n where layer.winner[k] >= 0 {
                let p = Int(layer.amplitude[k]), reference = Int(target.amplitude[k])
                if p == reference && p + 1 > min(255, reference + tolerance)
                    && !target.sharpnessAcceptable(layer.sharpness[k], at: k)
                {
                    conflicting.insert(Int(layer.winner[k]))
                }
            }
            if conflicting.isEmpty { break }
            pulses = pulses.enumerated().filter { !conflicting.contains($0.offset) }.map(\.element)
        }
        // Keep the pulses that give the reference on at least one tick where they win.
        let layer = PulseLayer(pulses, tickCount: n)
        var useful = [Bool](repeating: false, count: pulses.count)
        for k in 0..<n where layer.winner[k] >= 0 {
            let index = Int(layer.winner[k])
            if !useful[index], layer.amplitude[k] == target.amplitude[k],
                target.sharpnessAcceptable(layer.sharpness[k], at: k)
            {
                useful[index] = true
            }
        }
        return zip(pulses, useful).filter(\.1).map(\.0)
    }
}
