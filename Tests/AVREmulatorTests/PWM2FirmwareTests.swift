// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import FirmwareModel
    import HapticCompiler
    import HapticProtocol
    import Testing

    /// The protocol 3.0 image with two H-bridges (make OUTPUT=pwm2: channel 0 an LRA on Timer1,
    /// channel 1 an ERM on Timer2, the tick on Timer0) on the simulated board: HELLO 3.0, INFO,
    /// DESCRIBE, and a play on both channels whose every PWM update, on both bridges, and every byte
    /// the board sends equal what `DeviceModel3` and `PWMSynthesis` (each channel's own profile)
    /// make of the same input.
    @Suite struct PWM2FirmwareTests {
        /// 180 ticks: ramps, a pulse, a loop closed by its SET_A, a fall.
        static let program = Protocol3Board.program([
            .setS(200), .rampA(to: 220, duration: 30, delay: 30), .pulse(amplitude: 255, sharpness: 40, delay: 12),
            .loop(count: 3, delay: 0), .setA(120, delay: 10), .setA(0, delay: 10), .endLoop(delay: 0),
            .rampA(to: 180, duration: 20, delay: 40), .setA(0, delay: 1), .end(delay: 30),
        ])

        @Test func bootsAnswersHelloInfoAndDescribeWithEachChannelsProfile() throws {
            let host = try Protocol3Board(elf: Protocol3Board.pwm2.get())
            let (info, channels) = try host.helloAndDescribe()
            #expect(info.base.version == ProtocolVersion.version3)
            #expect(info.channelCount == 2)
            #expect(info.players == 4 && info.workBudget == 36 && info.fadeTicks == 8)
            #expect(info.base.slotCount == 1 && info.base.slotCapacity == 128 && info.base.streamCapacity == 0)
            #expect(info.base.capabilities.contains(.trim), "the tick on Timer0 takes the trim (3.10)")
            #expect(!info.base.capabilities.contains(.seek), "no SEEK on the ATmega328P (HB_PORT_SEEK 0)")
            #expect(info.base.capabilities.contains(.status) && !info.base.capabilities.contains(.stream))
            try #require(channels.count == 2)
            let lra = try AVRFirmwareBuild(output: .pwm, actuator: .lra).pwmSettings()
            let erm = try AVRFirmwareBuild(output: .pwm, actuator: .erm).pwmSettings()
            for (c, settings, name) in [(0, lra, "lra-170hz-10mm"), (1, erm, "erm-coin-10mm")] {
                let ci = channels[c]
                #expect(ci.channel == UInt8(c) && ci.stageCode == 1)
                #expect(ci.actuatorCode == (c == 0 ? 1 : 2))
                #expect(String(decoding: ci.profileName, as: UTF8.self) == name)
                #expect(ci.capabilities.contains(.diag))
                // the duty caps of each profile: never more than its rated and overdrive voltages
                #expect(ci.ratedMillivolts > 0 && Int(ci.ratedMillivolts) <= settings.ratedMillivolts)
                #expect(ci.limitMillivolts >= ci.ratedMillivolts && Int(ci.limitMillivolts) <= settings.overdriveMillivolts)
            }
            #expect(channels[0].capabilities.contains(.activeBrake) && !channels[1].capabilities.contains(.activeBrake))
            let name = String(decoding: info.base.profileName, as: UTF8.self)
            #expect(name == "lra-170hz-10mm", "INFO names channel 0's profile")
        }

        @Test func aPlayOnBothChannelsEqualsTheModelTickForTick() throws {
            let host = try Protocol3Board(elf: Protocol3Board.pwm2.get())
            let (info, channels) = try host.helloAndDescribe()
            host.board.resetProfile()
            #expect(try host.load(Self.program))
            #expect(try host.ack(.play(.init(play: 1, channels: 0b11, slot: 0, flags: 2))) != nil)
            try host.run(ticks: 100)
            // a second play on channel 1 alone, mixed with the first (SUM)
            #expect(try host.ack(.play(.init(play: 2, channels: 0b10, slot: 0, flags: 2, scale: 128))) != nil)
            try host.run(ticks: 260)

            let board = host.board
            let profile = board.profile()
            print(
                "REPORT pwm2: longest step \(profile[.interpreterTick].maxCyclesPerCall) cycles (lead \(board.stepLeadCycles ?? 0)), longest frame handling \(profile[.protocolHandler].maxCyclesPerCall)"
            )
            let replay = ModelReplay3(
                board: board, timerStart: host.timerStart, configuration: Protocol3Board.configuration(info: info, channels: channels))
            #expect(replay.consumed == replay.inputCount)
            #expect(host.allBytes.count > 200)
            #expect(Array(host.allBytes.prefix(replay.bytes.count)) == replay.bytes, "every byte the board sent")
            #expect(host.allBytes.count == replay.bytes.count)
            let finished = host.telemetry.filter { $0.event == .finished }.map { [$0.play, $0.channel] }
            #expect(finished == [[1, 0], [1, 1], [2, 1]])

            let settings = [
                try AVRFirmwareBuild(output: .pwm, actuator: .lra).pwmSettings(),
                try AVRFirmwareBuild(output: .pwm, actuator: .erm).pwmSettings(),
            ]
            for channel in 0..<2 {
                let samples = replay.samples[channel]
                #expect(samples.filter { $0.amplitude > 0 }.count > 40)
                let trace = try #require(
                    PWMTrace(
                        events: board.events(), channel: channel, updatesPerTick: 8, cyclesPerTick: board.cyclesPerTick,
                        until: board.cycle, tickTimer: .timer0Start))
                var synthesis = PWMSynthesis(settings: settings[channel])
                var mismatches = 0
                for (k, sample) in samples.enumerated() {
                    let updates = synthesis.tick(sample)
                    // an ERM's one update a tick, repeated by the 8-update tick both bridges share
                    let expected = updates.count == 8 ? updates : Array(repeating: updates[0], count: 8)
                    let recorded = Array(trace.updates(ofDeviceTick: k))
                    if recorded != expected {
                        mismatches += 1
                        if mismatches <= 3 { Issue.record("channel \(channel), tick \(k): board \(recorded), model \(expected) from \(sample)") }
                    }
                }
                #expect(mismatches == 0, "channel \(channel)")
            }
            #expect(board.readGlobal("hb_output_late_ticks", size: 2) == 0)

            // the stack (painted at boot, AVRBoardStack.swift) kept the Makefile's reserve of 64 bytes
            let free = try #require(host.board.stackFreeMinimum)
            #expect(free >= 64, "\(free) bytes of RAM the stack never reached")
            print("REPORT stack: \(free) bytes the stack never reached")
        }

        /// The tick trim (3.10) in the tick timer: a tick of 2,000 Timer0 counts of 8 cycles is
        /// 2,000 - 20 counts (15,840 cycles) at +10,000 ppm and 2,020 (16,160) at -10,000.
        @Test func theTrimShortensAndLengthensEveryTick() throws {
            try Protocol3Board(elf: Protocol3Board.pwm2.get()).checkTrim()
        }
    }
#endif
