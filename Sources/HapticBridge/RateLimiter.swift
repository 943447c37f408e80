/// The haptic design guidelines this project follows (docs/presets.md) as a limiter: at most 10 haptics a second
/// sustained and bursts of at most 5 in 500 ms. Each rule is "at most `count` plays in any
/// `window` seconds", checked over the times of the plays admitted so far. Off by default: raw
/// access (tests, the latency profiler) is not throttled; an app turns it on.
public struct RateLimiter: Sendable, Hashable {
    public struct Rule: Sendable, Hashable {
        public var count: Int
        public var window: Double
        public init(count: Int, window: Double) {
            self.count = count
            self.window = window
        }
    }

    /// 5 in 500 ms (burst), 10 in 1 s (sustained).
    public static let guidelineRules = [Rule(count: 5, window: 0.5), Rule(count: 10, window: 1)]

    public var rules: [Rule]
    public var isEnabled: Bool
    private var admitted: [Double] = []

    public init(rules: [Rule] = RateLimiter.guidelineRules, isEnabled: Bool = false) {
        self.rules = rules
        self.isEnabled = isEnabled
    }

    /// Seconds until a play at `now` would be admitted; 0 when it would be now.
    public func delay(at now: Double) -> Double {
        guard isEnabled else { return 0 }
        var wait = 0.0
        for rule in rules where rule.count > 0 {
            let recent = admitted.filter { now - $0 < rule.window }
            if recent.count >= rule.count {
                // The oldest play that has to leave the window for one more to fit.
                let leaving = recent.sorted()[recent.count - rule.count]
                wait = max(wait, leaving + rule.window - now)
            }
        }
        return wait
    }

    /// Admits a play at `now` and records it, or returns the seconds to wait (nothing recorded).
    public mutating func admit(at now: Double) -> Double? {
        guard isEnabled else { return nil }
        let wait = delay(at: now)
        if wait > 0 { return wait }
        let longest = rules.map(\.window).max() ?? 0
        admitted.removeAll { now - $0 >= longest }
        admitted.append(now)
        return nil
    }
}
