/// One output of one board: what a set's entries are grouped by for rendering and playing.
public struct ChannelAddress: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var board: Int
    public var channel: Int

    public init(board: Int, channel: Int) {
        self.board = board
        self.channel = channel
    }

    public static func < (a: Self, b: Self) -> Bool { (a.board, a.channel) < (b.board, b.channel) }

    /// `board 0 channel 1`.
    public var description: String { "board \(board) channel \(channel)" }
}
