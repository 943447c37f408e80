import HapticProtocol

/// The program slots (firmware-protocol/PROTOCOL.md 2.7), shared by the 2.0 and 3.0 models: one
/// memory of `count * capacity` bytes, UPLOAD's appending and COMMIT's checks. What a slot's
/// program must pass (the format) and when a slot is busy are the device's, handed in.
struct ProgramSlots: Sendable {
    struct Slot: Sendable {
        var fill: UInt32 = 0
        var ready = false
    }

    let capacity: UInt32
    var memory: [UInt8]
    var slots: [Slot]

    init(count: UInt8, capacity: UInt32) {
        self.capacity = capacity
        memory = Array(repeating: 0, count: Int(count) * Int(capacity))
        slots = Array(repeating: Slot(), count: Int(count))
    }

    var count: Int { slots.count }

    /// The bytes uploaded in order to `slot`.
    func program(_ slot: UInt8) -> [UInt8] {
        let start = Int(slot) * Int(capacity)
        return Array(memory[start..<(start + Int(slots[Int(slot)].fill))])
    }

    /// UPLOAD (2.7) after its length check: code (0: ACK) and value. `busyPlaying`: the slot `p[0]`
    /// is busy (played or about to be).
    mutating func upload(_ p: [UInt8], busyPlaying: Bool) -> (code: UInt8, value: UInt32) {
        let slot = p[0]
        let offset = p.u32(at: 1)
        let count = UInt32(p.count - 5)
        guard slot < slots.count else { return (MessageErrorCode.badSlot.rawValue, 0) }
        guard !busyPlaying else { return (MessageErrorCode.slotBusy.rawValue, 0) }
        let fill = slots[Int(slot)].fill
        guard offset == 0 || offset == fill else { return (MessageErrorCode.badOffset.rawValue, fill) }
        guard count <= capacity - offset else { return (MessageErrorCode.noSpace.rawValue, capacity) }
        let start = Int(slot) * Int(capacity) + Int(offset)
        memory.replaceSubrange(start..<(start + Int(count)), with: p[5...])
        slots[Int(slot)] = Slot(fill: offset + count, ready: false)
        return (0, offset + count)
    }

    /// COMMIT (2.7) after its length check: `validate` returns the program's total ticks or its
    /// error code; a failed check empties the slot.
    mutating func commit(
        _ p: [UInt8], busyPlaying: Bool, validate: ([UInt8]) -> Result<UInt32, ProgramError>
    ) -> (code: UInt8, value: UInt32) {
        let slot = p[0]
        let length = p.u32(at: 1)
        guard slot < slots.count else { return (MessageErrorCode.badSlot.rawValue, 0) }
        guard !busyPlaying else { return (MessageErrorCode.slotBusy.rawValue, 0) }
        guard length == slots[Int(slot)].fill else { return (MessageErrorCode.commitLength.rawValue, slots[Int(slot)].fill) }
        let program = program(slot)
        let crc = CRC16.checksum(program)
        guard crc == p.u16(at: 5) else {
            slots[Int(slot)] = Slot()
            return (MessageErrorCode.checksumMismatch.rawValue, UInt32(crc))
        }
        switch validate(program) {
        case .success(let total):
            slots[Int(slot)].ready = true
            return (0, total)
        case .failure(let error):
            slots[Int(slot)] = Slot()
            return (error.rawValue, 0)
        }
    }
}
