/// What `HapticSetRenderer` produces: per (board, channel), the entries on it and its envelope.
public struct HapticSetRendering: Sendable, Hashable {
    public struct Channel: Sendable, Hashable {
        public var address: ChannelAddress
        /// Indices into the set's entries, in file order.
        public var entries: [Int]
        /// Tick k at time k / rate, from the set's start to the end of the channel's last entry.
        public var samples: [RenderedSample]
    }

    /// Ticks per second.
    public var rate: Double
    /// Sorted by board, then channel.
    public var channels: [Channel]

    /// Ticks of the longest channel.
    public var tickCount: Int { channels.map(\.samples.count).max() ?? 0 }
    /// Seconds of the longest channel.
    public var duration: Double { Double(tickCount) / rate }
}
