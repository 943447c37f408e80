import HapticProtocol

/// The play records (firmware-protocol/PROTOCOL.md 2.19): what the notices of the two most recent
/// plays said, for QUERY; INFO in parts. Mirrors hb_device_plays.c.
extension DeviceModel {
    /// Play records a device keeps.
    static let playHistory = 2

    private mutating func push(_ record: Message.PlayRecord) {
        plays.insert(record, at: 0)
        if plays.count > Self.playHistory { plays.removeLast() }
    }

    /// A play starts (2.14 step 2).
    mutating func recordStart(_ play: PendingPlay, tick: UInt32) {
        push(
            Message.PlayRecord(
                state: Message.PlayRecord.playing, sequence: play.sequence, slot: play.slot, code: 0, start: tick,
                firstOffset: nil, end: 0))
    }

    /// A pending play ends without starting (the watchdog, a stage fault).
    mutating func recordUnstarted(_ play: PendingPlay, code: UInt8, tick: UInt32) {
        push(
            Message.PlayRecord(
                state: Message.Telemetry.Event.fault.rawValue, sequence: play.sequence, slot: play.slot, code: code,
                start: tick, firstOffset: nil, end: tick))
    }

    /// The active play (record 0) ends as its end notice says.
    mutating func recordEnd(_ event: Message.Telemetry.Event, code: UInt8, tick: UInt32) {
        guard !plays.isEmpty else { return }
        plays[0].state = event.rawValue
        plays[0].code = code
        plays[0].end = tick
    }

    mutating func recordFirstOutput(tick: UInt32) {
        guard !plays.isEmpty else { return }
        plays[0].firstOffset = UInt16(min(tick &- plays[0].start, 0xFFFE))
    }

    /// STATUS for record `index` (2.19).
    func status(index: UInt8) -> Message.Status {
        let record =
            Int(index) < plays.count
            ? plays[Int(index)]
            : Message.PlayRecord(state: 0, sequence: 0, slot: 0, code: 0, start: 0, firstOffset: nil, end: 0)
        return Message.Status(
            now: now, pendingSlot: pending?.slot ?? Message.Telemetry.noSlot, pendingSequence: pending?.sequence ?? 0,
            index: index, record: record)
    }
}
