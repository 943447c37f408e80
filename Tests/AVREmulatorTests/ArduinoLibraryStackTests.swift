// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import HapticTransport
    import Foundation
    import TestSupport
    import Testing

    /// The stack measured, not estimated: every image's free RAM painted in simavr (AVRBoardStack) and
    /// scanned after StackWorstPaths (every handler, HELLO, DIAG, QUERY and PING during a streamed play
    /// at line rate, and the DRV2605L's faults met from power-up, calibration included). Each image
    /// keeps at least `required` bytes beyond the deepest it went, the figure the builds refuse to
    /// compile without (hb_port_config.h's HB_ARDUINO_STACK_WORST for the library, the Makefile's size check
    /// for the bare-metal images); docs/performance.md and the READMEs report the figures.
    @Suite(.serialized) struct ArduinoLibraryStackTests {
        /// Bytes every image keeps free beyond its measured worst.
        static let required = 64

        /// A figure of the library's hb_port_config.h (HB_ARDUINO_STACK_WORST: the deepest the library's stack
        /// goes, measured here; HB_ARDUINO_FIXED_RAM; HB_ARDUINO_STACK_RESERVE), which HapticBridgeWith's
        /// compile-time check uses.
        static func portFigure(_ name: String) throws -> Int {
            let text = try String(contentsOf: Repository.url("hardware/arduino/HapticBridge/src/hb_port_config.h"), encoding: .utf8)
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("#define \(name) ") })
            return try #require(Int(line.split(separator: " ").last ?? ""))
        }

        /// An example (or a test sketch's folder, hardware/arduino/test-sketches/NAME) built for the Uno.
        static func arduinoELF(_ example: String) throws -> String {
            let output = try runProcess(executable: Repository.url("tools/arduino-build").path, arguments: ["--elf", example, "uno"])
            let text = String(decoding: output.stdout, as: UTF8.self)
            guard output.status == 0, let path = text.split(separator: "\n").last.map(String.init) else {
                throw ArduinoLibraryTests.BuildFailure(log: text + String(decoding: output.stderr, as: UTF8.self))
            }
            return path
        }

        static func staticRAM(_ elf: String) throws -> Int {
            let output = try runProcess(executable: "/usr/bin/avr-size", arguments: ["-A", elf])
            var total = 0
            for line in String(decoding: output.stdout, as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                if fields.count >= 2, [".data", ".bss", ".noinit"].contains(String(fields[0])) { total += Int(fields[1]) ?? 0 }
            }
            return total
        }

        static func check(_ name: String, _ path: String, fault: DRV2605LFault = .none) throws -> Int {
            let outcome = try StackWorstPaths.measure(firmware: path, fault: fault)
            let label = fault == .none ? name : "\(name) --fault \(fault.rawValue)"
            let depth = outcome.painted - outcome.stackFreeMinimum
            // The worst path was driven: the streamed play ran to its end (or met the stage fault), and
            // the commands sent during it were answered from inside it.
            #expect(
                outcome.streamEnd == ([.none, .busStuck].contains(fault) ? .finished : .fault),
                "\(label): the streamed play ended with \(String(describing: outcome.streamEnd))")
            #expect(outcome.repliesDuringStream >= 15, "\(label): \(outcome.repliesDuringStream) replies during the stream")
            #expect(outcome.stackFreeMinimum >= required, "\(label): \(outcome.stackFreeMinimum) bytes free at the worst")
            print("REPORT stack, \(label): \(outcome.stackFreeMinimum) bytes free at the deepest (stack \(depth) of \(outcome.painted))")
            return depth
        }

        @Test func everyArduinoExampleKeepsItsMarginOnTheWorstPaths() throws {
            var deepest = 0
            let drv = try ArduinoLibraryTests.elf.get()  // built once per run: other suites load it too
            let faults: [DRV2605LFault] = [
                .none, .driverAbsent, .calibrationFails, .overtemp, .overcurrent, .busStuck, .busLost, .powerLoss, .busHang,
            ]
            for fault in faults {
                deepest = max(deepest, try Self.check("Arduino DRV2605L", drv, fault: fault))
            }
            deepest = max(deepest, try Self.check("Arduino ERM", try Self.arduinoELF("ERM")))
            let large = try Self.arduinoELF("hardware/arduino/test-sketches/StackLargeSlots")
            deepest = max(deepest, try Self.check("Arduino HapticBridgeWith<1, 384, 128>", large))
            // The compile-time figures cover what was measured: the deepest stack, and the static data
            // besides the template's buffers (2 x 192 + 128 + 9 bytes of the default).
            let worst = try Self.portFigure("HB_ARDUINO_STACK_WORST")
            #expect(deepest <= worst, "the library's stack went \(deepest) bytes deep, over hb_port_config.h's \(worst)")
            let fixed = try Self.staticRAM(drv) - (2 * 192 + 128 + 9)
            #expect(fixed <= (try Self.portFigure("HB_ARDUINO_FIXED_RAM")), "the DRV2605L example's other static data is \(fixed) bytes")
            print("REPORT stack, Arduino library: deepest \(deepest) bytes (hb_port_config.h: worst \(worst), other static data \(fixed))")
        }

        /// A size that would keep less than the reserve beyond the measured worst does not compile, and
        /// says why with the figures.
        @Test func aTemplateSizeWithoutTheReserveDoesNotCompile() throws {
            let output = try runProcess(
                executable: Repository.url("tools/arduino-build").path,
                arguments: ["--elf", "hardware/arduino/test-sketches/StackTooLarge", "uno"])
            #expect(output.status != 0)
            let log = String(decoding: output.stdout + output.stderr, as: UTF8.self)
            let worst = try Self.portFigure("HB_ARDUINO_STACK_WORST")
            #expect(
                log.contains(
                    "static assertion failed: HapticBridgeWith: these sizes leave the stack less than 64 bytes beyond its measured worst (\(worst) bytes"
                ),
                "\(log.suffix(600))")
        }

        @Test func everyBareMetalImageKeepsItsMarginOnTheWorstPaths() throws {
            let builds: [(String, AVRFirmwareBuild)] = [
                ("bare-metal pwm-lra", AVRFirmwareBuild(output: .pwm, actuator: .lra)),
                ("bare-metal pwm-erm", AVRFirmwareBuild(output: .pwm, actuator: .erm)),
                ("bare-metal drv2605l-lra", AVRFirmwareBuild(output: .drv2605l, actuator: .lra)),
                ("bare-metal drv2605l-erm", AVRFirmwareBuild(output: .drv2605l, actuator: .erm)),
            ]
            var deepest = 0
            for (name, build) in builds {
                let path = try build.build(repositoryRoot: Repository.root.path)
                let faults: [DRV2605LFault] =
                    build.output == .drv2605l ? [.none, .driverAbsent, .calibrationFails, .overtemp, .busLost, .powerLoss, .busHang] : [.none]
                for fault in faults { deepest = max(deepest, try Self.check(name, path, fault: fault)) }
            }
            // The Makefile's link-time check uses the figure measured here.
            let makefile = try String(contentsOf: Repository.url("hardware/firmware/boards/atmega328p/Makefile"), encoding: .utf8)
            let line = try #require(makefile.split(separator: "\n").first { $0.hasPrefix("STACK_WORST_V2 := ") })
            let figure = try #require(Int(line.split(separator: " ").last ?? ""))
            #expect(deepest <= figure, "the bare-metal stack went \(deepest) bytes deep, over the Makefile's \(figure)")
            print("REPORT stack, bare-metal images: deepest \(deepest) bytes (the Makefile's STACK_WORST_V2 \(figure))")
        }
    }
#endif
