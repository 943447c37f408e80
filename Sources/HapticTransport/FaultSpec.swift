/// Byte faults on a line as written on a command line, `drop=P,corrupt=P,duplicate=P,delay=MS,
/// delay-rate=P,seed=N` (P in 0...1; `haptic emulate --faults`, docs/cli.md): the profile both
/// directions get, and the seed of the one towards the device (the other direction takes seed + 1).
public struct FaultSpec: Sendable, Equatable {
    public var profile = FaultProfile()
    public var seed: UInt64 = 0
    /// The text it was read from, as given.
    public var text: String

    /// A delayed byte is held back with this probability unless `delay-rate` says otherwise.
    public static let defaultDelayRate = 0.01

    /// What is wrong with a spec, in one line without the option's name.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public var description: String

        public init(description: String) { self.description = description }
    }

    public init(_ text: String) throws(Problem) {
        self.text = text
        var delayRate: Double?
        var delayed = false
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                throw Problem(description: "'\(item)' is not KEY=VALUE (keys: drop, corrupt, duplicate, delay, delay-rate, seed)")
            }
            let (key, value) = (parts[0], parts[1])
            func probability() throws(Problem) -> Double {
                guard let p = Double(value), (0...1).contains(p) else { throw Problem(description: "\(key)=\(value) must be a probability 0...1") }
                return p
            }
            switch key {
            case "drop": profile.drop = try probability()
            case "corrupt": profile.corrupt = try probability()
            case "duplicate": profile.duplicate = try probability()
            case "delay-rate": delayRate = try probability()
            case "delay":
                guard let ms = Double(value), ms > 0, ms <= 10_000 else {
                    throw Problem(description: "delay=\(value) must be milliseconds, more than 0, at most 10000")
                }
                profile.maxDelay = ms / 1000
                delayed = true
            case "seed":
                guard let seed = UInt64(value) else { throw Problem(description: "seed=\(value) must be a whole number 0...\(UInt64.max)") }
                self.seed = seed
            default:
                throw Problem(description: "unknown key '\(key)' (keys: drop, corrupt, duplicate, delay, delay-rate, seed)")
            }
        }
        if delayed {
            profile.delay = delayRate ?? Self.defaultDelayRate
        } else if delayRate != nil {
            throw Problem(description: "delay-rate needs delay=MS")
        }
    }

    /// The injectors of the two directions: towards the device with `seed`, from it with `seed + 1`.
    public var injectors: (toDevice: FaultInjector, fromDevice: FaultInjector) {
        (FaultInjector(profile: profile, seed: seed), FaultInjector(profile: profile, seed: seed &+ 1))
    }

    /// One line of what an injector did.
    public static func summary(_ counts: FaultCounts) -> String {
        "\(counts.bytes) bytes, \(counts.dropped) dropped, \(counts.corrupted) corrupted, \(counts.duplicated) duplicated, \(counts.delayed) delayed"
    }
}
