import HapticProtocol

/// The session's life (PROTOCOL.md 2.19): established after INFO; on a device RESET or a lost
/// session, every operation not meant to survive fails, and a recovery handshake re-uploads every
/// committed program; on a failure, everything waiting learns why.
extension SessionEngine {
    func deviceReset(now: Double) {
        guard state == .ready || state == .recovering else {
            // An Arduino resets when its port is opened (DTR) and spends its bootloader's wait before
            // the firmware runs, losing what was sent meanwhile: its RESET notice says the firmware
            // now listens, so a HELLO in flight goes again at once instead of at its next interval.
            if var hello = inFlight, hello.type == .hello {
                hello.deadline = now
                hello.attempt -= 1  // an extra send: the handshake keeps its whole time-out
                inFlight = hello
                poll(now: now)
            }
            return
        }
        stream = nil
        playMayRun = false
        pendingParameters = nil
        tracker.forgetAll()
        if let operation = current {
            current = nil
            inFlight = nil
            if operation.restartsAfterReset || operation is RecoveryOperation {
                if !(operation is RecoveryOperation) { queue.insert(operation, at: 0) }
            } else {
                operation.fail(.deviceReset)
            }
        }
        beginRecovery(now: now)
    }

    func beginRecovery(now: Double) {
        queue.removeAll { $0 is RecoveryOperation }
        state = .recovering
        needsDelimiter = true
        let recovery = RecoveryOperation { [unowned self] result in
            switch result {
            case .success(let count):
                state = .ready
                onEvent(.recovered(slots: count))
            case .failure(let error):
                fail(with: error)
            }
        }
        queue.insert(recovery, at: 0)
        advance(now: now)
    }

    func fail(with error: SessionError) {
        if case .failed = state { return }
        state = .failed(error)
        inFlight = nil
        let operations = (current.map { [$0] } ?? []) + queue
        current = nil
        queue = []
        for operation in operations where !(operation is RecoveryOperation) { operation.fail(error) }
        let waiting = pings.values
        pings = [:]
        for ping in waiting { ping.completion(.failure(error)) }
        stream = nil
        onEvent(.connectionLost(error))
    }
}
