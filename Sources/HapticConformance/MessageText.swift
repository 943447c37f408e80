import HapticProtocol

/// Messages as the first-divergence lines spell them: `ACK UPLOAD value 256`,
/// `NACK UPLOAD 69 SLOT_BUSY value 0`, `TELEMETRY STARTED slot 0 code 0 tick 1234`.
enum MessageText {
    static func typeName(_ raw: UInt8) -> String {
        MessageType.name(of: raw)
    }

    static func describe(_ message: Message) -> String {
        switch message {
        case .ack(let m): "ACK \(typeName(m.type)) value \(m.value)"
        case .nack(let m): "NACK \(typeName(m.type)) \(m.code) value \(m.value)"
        case .info(let m): "INFO \(m.version) rate \(m.rate) slots \(m.slotCount)x\(m.slotCapacity) stream \(m.streamCapacity) watchdog \(m.watchdog)"
        case .pong(let m): "PONG echo \(m.echo) tick \(m.tick)"
        case .telemetry(let m): "TELEMETRY \(m.event) slot \(slotName(m.slot)) code \(m.code) tick \(m.tick)"
        case .credit(let m): "CREDIT next \(m.next) limit \(m.limit)"
        case .reset(let m): "RESET \(m.version) reason \(m.reasonCode) boot \(m.bootCount)"
        default: message.type.description
        }
    }

    /// A received frame: its message, or why it is not one.
    static func describe(_ frame: Frame) -> String {
        do {
            return describe(try Message(frame: frame))
        } catch {
            return "\(typeName(frame.messageType)) frame that does not decode (\(error))"
        }
    }

    static func slotName(_ slot: UInt8) -> String { slot == Message.streamSlot ? "stream" : "\(slot)" }

    /// "nothing", "X", or "X, then Y" for a list of expected or received messages.
    static func list(_ items: [String]) -> String {
        items.isEmpty ? "nothing" : items.joined(separator: ", then ")
    }
}
