import HapticProtocol
import HapticSession

/// Plays on a 3.0 device's channels (PROTOCOL-3.md 3.2, 3.3): what the device is, plays with an id
/// and a channel mask, and a STOP of one play. The single-actuator calls are play 0 on channel 0.
extension HapticDevice {
    /// Where a play sounds and how it sits with the others (3.3, 3.6).
    public struct PlayPlacement: Sendable, Hashable {
        /// The play id, 0...253: a new play with the id of a running one replaces it.
        public var id: UInt8
        /// Bit c for channel c; not 0.
        public var channels: UInt16
        /// Mix by sum with the plays alongside (else by max).
        public var sum: Bool
        /// End every other play on its channels when it starts (STOPPED, replaced).
        public var cut: Bool

        public init(id: UInt8, channels: UInt16, sum: Bool = false, cut: Bool = false) {
            self.id = id
            self.channels = channels
            self.sum = sum
            self.cut = cut
        }

        /// Play 0 on channel 0: the one play of a 2.0 device, and the single-actuator calls.
        public static let single = PlayPlacement(id: 0, channels: 1)

        /// Play `id` on the channels listed.
        public static func play(_ id: UInt8, on channels: [Int], sum: Bool = false, cut: Bool = false) -> PlayPlacement {
            PlayPlacement(id: id, channels: channels.reduce(0) { $0 | UInt16(1) << UInt16($1 & 15) }, sum: sum, cut: cut)
        }

        func message(slot: UInt8, startTick: UInt32?, scale: UInt8, offset: Int8, loops: UInt16) -> Message3.Play {
            var flags: UInt8 = startTick == nil ? 0 : Message3.Play.atFlag
            if sum { flags |= Message3.Play.sumFlag }
            if cut { flags |= Message3.Play.cutFlag }
            return Message3.Play(
                play: id, channels: channels, slot: slot, flags: flags, at: startTick ?? 0, scale: scale, offset: offset, loops: loops)
        }
    }

    /// What the device is: the protocol the session speaks with it (3.0, or 2.0 for a 2.0 device),
    /// its channels with their profiles, players and capabilities (nil before `connect`).
    public var deviceDescription: DeviceDescription? {
        runner.withEngine { engine, _ in engine.device }
    }

    /// Stops play `id` on `channels` (3.11 STOP; pending ones are cancelled): the other plays go on.
    /// With `atTick` (3.0 only), at that device tick (3.7). Returns the device tick it took effect.
    /// A 2.0 device stops whatever plays.
    @discardableResult
    public func stop(play id: UInt8, channels: UInt16 = Message3.allChannels, brake: Bool = true, atTick: UInt32? = nil) async throws -> UInt32 {
        let flags = (brake ? Message3.Stop.brakeFlag : 0) | (atTick == nil ? 0 : Message3.Stop.atFlag)
        let stop = Message3.Stop(play: id, channels: channels, flags: flags, at: atTick ?? 0)
        return try await perform { CommandOperation(.stop(stop), completion: $0) }
    }

    /// `program` with the format byte of the device's major (3.14: the format byte and rule (f)
    /// are the whole difference; the compiler folds only closed loops, and a 3.0 device checks).
    func forDevice(_ program: Program) -> Program {
        guard let format = deviceDescription?.programFormat, program.header.version != format else { return program }
        var stamped = program
        stamped.header.version = format
        return stamped
    }
}
