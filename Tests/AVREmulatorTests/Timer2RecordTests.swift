// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import Testing

    /// Timer2's compare registers recorded as PWM channel 1 (a second H-bridge: OC2A = D11,
    /// OC2B = D3), beside Timer1's channel 0, per update window as `PWMTrace` does for channel 0.
    @Suite struct Timer2RecordTests {
        @Test func timer2IsRecordedAsChannelOne() throws {
            let program = try MuxTestProgram(drivers: nil)
            let board = program.board
            try program.timer2(0x00, 0x00)  // starts the timer: the record's t0
            try board.run(ticks: 3)
            try program.timer2(0x40, 0x80)
            try board.run(ticks: 4)
            try program.timer2(0x10, 0x00)
            try board.run(ticks: 4)
            let events = board.events()
            let t0 = try #require(events.first { $0.kind == .tickTimerStart }).cycle
            let T = board.cyclesPerTick
            let one = try #require(PWMTrace(events: events, channel: 1, updatesPerTick: 1, cyclesPerTick: T, until: board.cycle))
            let pairs = one.updates.map { [$0.forward, $0.reverse] }
            var distinct: [[UInt8]] = []
            for pair in pairs where distinct.last != pair { distinct.append(pair) }
            #expect(distinct == [[0x00, 0x00], [0x40, 0x80], [0x10, 0x00]])
            // Each change in the update window of the tick it was written in.
            let writes = events.filter { $0.kind == .ocr2a && $0.cycle > t0 }
            #expect(writes.map(\.channel) == [1, 1, 1])
            for (write, pair) in zip(writes.dropFirst(), distinct.dropFirst()) {
                let first = try #require(pairs.firstIndex(of: pair))
                #expect(UInt64(first + 1) == (write.cycle - t0) / T, "update m spans tick m")
            }
            #expect(!events.contains { $0.kind == .ocr2b && $0.channel != 1 })
            // Channel 0 (Timer1) saw nothing.
            let zero = try #require(PWMTrace(events: events, updatesPerTick: 1, cyclesPerTick: T, until: board.cycle))
            #expect(zero.updates.allSatisfy { $0.forward == 0 && $0.reverse == 0 })
            #expect(zero.missingWrites == zero.updates.count)
            #expect(PWMTrace(events: events, channel: 2, updatesPerTick: 1, cyclesPerTick: T, until: board.cycle) == nil)
        }
    }
#endif
