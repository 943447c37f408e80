import FirmwareModel
import Foundation
import HapticPattern
import HapticProtocol
import TestSupport
import Testing

@testable import HapticCompiler

// MARK: - Support shared by the compiler's test files

enum CompilerFixtures {
    /// Examples/corpus, or the folder `HAPTIC_CORPUS` names (the fidelity suites run on it).
    static let corpusDirectory = Corpus.directory.path

    static var corpusFiles: [String] {
        Corpus.names()
    }

    static func corpusPattern(_ name: String) throws -> HapticPattern {
        try AHAPDecoder().decode(contentsOfFile: corpusDirectory + "/" + name).pattern
    }

    /// A named file of the shipped corpus (for tests about that file, whatever HAPTIC_CORPUS says).
    static func shippedPattern(_ name: String) throws -> HapticPattern {
        try AHAPDecoder().decode(contentsOfFile: Corpus.shipped.appendingPathComponent(name).path).pattern
    }

    static var defaultProfile: ActuatorProfile {
        ActuatorProfile.builtIns.first { $0.name == ActuatorProfile.defaultName }!
    }

    /// A profile whose output stage renders sharpness (the open-loop LRA's 160..180 Hz band), with
    /// the default's transfer: for tests of the sharpness channel. (The default, a closed-loop
    /// DRV2605L, renders none: its automatic edges do not depend on sharpness.)
    static var sharpnessProfile: ActuatorProfile {
        ActuatorProfile.builtIns.first { $0.name == "lra-170hz-10mm" }!
    }

    /// The sharpness-rendering profile with a linear transfer: intensity ramps are ramps in codes.
    static var linearProfile: ActuatorProfile {
        var profile = sharpnessProfile
        profile.transfer = IntensityTransfer(curve: .linear)
        return profile
    }

    /// A profile whose output stage ignores sharpness (edges of constant strength).
    static var sharpnessBlindProfile: ActuatorProfile {
        var profile = linearProfile
        profile.sharpness = .edges(minimumEdge: 1)
        return profile
    }

    /// Plays a program on a fresh interpreter for its total ticks.
    static func play(_ program: Program) throws -> [OutputSample] {
        var interpreter = Interpreter(configuration: Fidelity.checkConfiguration(for: program))
        try interpreter.load(program)
        return (0..<Int(program.header.totalTicks)).map { _ in interpreter.step() }
    }

    /// Random patterns with every haptic feature, within the controls' ranges.
    static func randomPattern(_ g: inout SeededGenerator) -> HapticPattern {
        RandomPatterns.haptic.pattern(&g)
    }
}

// MARK: - Hand-built patterns with known programs

/// An intensity-control curve rising linearly from 0 to 1 over `seconds`, then holding.
private func rise(over seconds: Double) -> ParameterCurve {
    ParameterCurve(.hapticIntensityControl, at: 0, points: [(0, 0), (seconds, 1)])
}

@Test func linearRampInCodesIsOneRamp() throws {
    // Linear transfer: the control's 0 -> 1 over 100 ms is a ramp 0 -> 255 in codes.
    let pattern = HapticPattern(
        events: [.continuous(at: 0, duration: 0.3, intensity: 1, sharpness: 0.5)],
        curves: [rise(over: 0.1)])
    let compiled = try PatternCompiler.compile(pattern, profile: CompilerFixtures.linearProfile)
    let counts = compiled.report.instructions
    #expect(counts.rampA == 1)
    #expect(counts.setA == 0)  // tick 0 is silent: the channel's initial 0 is right
    #expect(counts.setS == 1)  // 0.5 -> 128 from the first sounding tick
    #expect(counts.rampS == 0)
    #expect(counts.total == 3)  // RAMP_A, SET_S, END
    #expect(compiled.report.fidelity.amplitudeMaxError <= 1)
    #expect(compiled.report.fidelity.sharpnessMaxError == 0)
    #expect(compiled.report.totalTicks == 300)
}

@Test func constantEventIsOneSet() throws {
    let pattern = HapticPattern(events: [.continuous(at: 0, duration: 0.2, intensity: 0.8, sharpness: 0)])
    let compiled = try PatternCompiler.compile(pattern, profile: CompilerFixtures.linearProfile)
    let instructions = try compiled.program.decodedInstructions().map(\.instruction)
    // 0.8 -> round(204) = 204 from tick 0; sharpness 0 everywhere: no sharpness channel.
    #expect(instructions == [.setA(204), .end(delay: 200)])
    #expect(compiled.report.sharpnessChannel == false)
    #expect(compiled.report.fidelity.amplitudeMaxError == 0)
    #expect(compiled.bytes.count == 16 + 2 + 3)  // END's delay 200 needs a varint byte
}

@Test func rectanglesAreSetsAtTheirExactEdges() throws {
    // Times exact in binary, so each edge falls on its tick (0.01 + 0.05 would end just after
    // tick 60 in floating point, and the renderer's grid would count tick 60 in).
    let pattern = HapticPattern(events: [
        .continuous(at: 0.5, duration: 0.25, intensity: 1, sharpness: 0),
        .continuous(at: 1.0, duration: 0.125, intensity: 0.5, sharpness: 0),
    ])
    let compiled = try PatternCompiler.compile(pattern, profile: CompilerFixtures.defaultProfile)
    let instructions = try compiled.program.decodedInstructions().map(\.instruction)
    // Intensity 0.5 with A = 255 I^2 -> 64 (63.75 rounded).
    #expect(instructions == [.setA(255, delay: 500), .setA(0, delay: 250), .setA(64, delay: 250), .end(delay: 125)])
    #expect(compiled.report.fidelity.amplitudeMaxError == 0)
}

@Test func transientIsOnePulseAtItsTick() throws {
    let pattern = HapticPattern(events: [.transient(at: 0.0304, intensity: 1, sharpness: 1)])
    let compiled = try PatternCompiler.compile(pattern, profile: CompilerFixtures.sharpnessProfile)
    let instructions = try compiled.program.decodedInstructions().map(\.instruction)
    // t0 = 30.4 ms -> tick 30; sharpness 1 -> code 255 -> a 10-tick pulse (ticks 30...39). The
    // pattern lasts until 40.4 ms, so the grid has 41 ticks and END comes 11 ticks after the PULSE.
    #expect(instructions == [.pulse(amplitude: 255, sharpness: 255, delay: 30), .end(delay: 11)])
    #expect(compiled.report.sharpnessChannel)
    #expect(compiled.report.fidelity.amplitudeMaxError == 0)
    #expect(compiled.report.fidelity.sharpnessMaxError == 0)
    #expect(compiled.report.programBytes == 16 + 3 + 1)
    #expect(compiled.report.totalTicks == 41)
}

@Test func pulseOverAContinuousEventLeavesTheEnvelopeFree() throws {
    // A loud tap in the middle of a quiet hum: the hum's SET holds under the pulse.
    let pattern = HapticPattern(events: [
        .continuous(at: 0, duration: 0.1, intensity: 0.5, sharpness: 0.2),
        .transient(at: 0.05, intensity: 1, sharpness: 0.8),
    ])
    let compiled = try PatternCompiler.compile(pattern, profile: CompilerFixtures.sharpnessProfile)
    let counts = compiled.report.instructions
    #expect(counts.setA == 1 && counts.rampA == 0)
    #expect(counts.setS == 1 && counts.rampS == 0)
    #expect(counts.pulse == 1)
    #expect(compiled.report.fidelity.amplitudeMaxError == 0)
    #expect(compiled.report.fidelity.sharpnessMaxError == 0)
}

@Test func dominatedTransientIsNotEmitted() throws {
    // A weak tap under a louder hum never shows: no PULSE for it.
    let pattern = HapticPattern(events: [
        .continuous(at: 0, duration: 0.1, intensity: 1, sharpness: 0.3),
        .transient(at: 0.05, intensity: 0.5, sharpness: 0.9),
    ])
    let compiled = try PatternCompiler.compile(pattern, profile: CompilerFixtures.defaultProfile)
    #expect(compiled.report.transients == 1)
    #expect(compiled.report.pulses == 0)
    #expect(compiled.report.fidelity.withinTolerance)
}

@Test func moreThanFourOverlappingTransientsStayExact() throws {
    // Six taps 2 ms apart: a 5th voice would cut the first one short, so the channel plays the
    // ones the kernel cannot.
    let events = (0..<6).map { HapticEvent.transient(at: Double($0) * 0.002, intensity: 1 - Double($0) * 0.1, sharpness: 0) }
    let compiled = try PatternCompiler.compile(
        HapticPattern(events: events), profile: CompilerFixtures.sharpnessProfile,
        options: CompileOptions(tolerance: 0))
    #expect(compiled.report.pulses <= 4)
    #expect(compiled.report.fidelity.amplitudeMaxError == 0)
    #expect(compiled.report.fidelity.sharpnessMaxError == 0)
}

@Test func sharpnessChannelOffWhenTheProfileIgnoresIt() throws {
    let pattern = HapticPattern(events: [
        .continuous(at: 0, duration: 0.1, intensity: 1, sharpness: 0.9),
        .transient(at: 0.2, intensity: 1, sharpness: 0.7),
    ])
    let compiled = try PatternCompiler.compile(pattern, profile: CompilerFixtures.sharpnessBlindProfile)
    #expect(compiled.program.header.hasSharpness == false)
    #expect(compiled.report.instructions.setS + compiled.report.instructions.rampS == 0)
    #expect(compiled.report.fidelity.sharpnessMaxError == nil)
    #expect(compiled.report.fidelity.amplitudeMaxError == 0)
    #expect(!CompilerFixtures.sharpnessBlindProfile.rendersSharpness)
    // Every shipped profile renders sharpness but the DRV2605L's, whose edges are the chip's own.
    let blind = ActuatorProfile.builtIns.filter { !$0.rendersSharpness }.map(\.name)
    #expect(blind == [ActuatorProfile.defaultName])
}

@Test func repeatedBeatsFoldIntoALoop() throws {
    // Ten identical beats 300 ms apart: a hum with a tap on top.
    var events: [HapticEvent] = []
    for beat in 0..<10 {
        let t = Double(beat) * 0.3
        events.append(.continuous(at: t, duration: 0.12, intensity: 0.6, sharpness: 0.3, attack: 0.2, release: 0.3))
        events.append(.transient(at: t + 0.01, intensity: 1, sharpness: 0.6))
    }
    let pattern = HapticPattern(events: events)
    let looped = try PatternCompiler.compile(pattern, profile: CompilerFixtures.defaultProfile)
    let flat = try PatternCompiler.compile(pattern, profile: CompilerFixtures.defaultProfile, options: CompileOptions(loops: false))
    #expect(looped.report.instructions.loop >= 1)
    #expect(flat.report.instructions.loop == 0)
    #expect(looped.report.programBytes * 3 < flat.report.programBytes)
    // Folding changes the encoding only: the output is the same sample for sample.
    #expect(try CompilerFixtures.play(looped.program) == CompilerFixtures.play(flat.program))
    #expect(looped.report.fidelity.withinTolerance)
}

@Test func emptyAndSilentPatternsCompileToEnd() throws {
    for pattern in [HapticPattern(), HapticPattern(events: [.continuous(at: 0.5, duration: 0.5, intensity: 0)])] {
        let compiled = try PatternCompiler.compile(pattern, profile: CompilerFixtures.defaultProfile)
        let instructions = try compiled.program.decodedInstructions().map(\.instruction)
        #expect(instructions.count == 1 && instructions[0].opcode == .end)
        #expect(compiled.report.fidelity.withinTolerance)
    }
}

@Test func invalidOptionsAreRejected() {
    #expect(throws: CompileError.self) {
        try PatternCompiler.compile(HapticPattern(), profile: CompilerFixtures.defaultProfile, options: CompileOptions(tolerance: 300))
    }
    #expect(throws: CompileError.self) {
        try PatternCompiler.compile(HapticPattern(), profile: CompilerFixtures.defaultProfile, options: CompileOptions(tickRate: 0))
    }
}

@Test func reportFiguresAddUp() throws {
    let pattern = try CompilerFixtures.shippedPattern("apple__unityplugins__Heartbeats.ahap")
    // Without loops, every pulse is one PULSE instruction (a loop plays some of them again).
    let report = try PatternCompiler.compile(
        pattern, profile: CompilerFixtures.defaultProfile,
        options: CompileOptions(loops: false)
    ).report
    #expect(report.programBytes == report.bodyBytes + 16)
    #expect(report.rawSampleBytes == 2 * report.totalTicks)
    #expect(report.ahapMinifiedBytes == AHAPEncoder(minified: true).encode(pattern).count)
    #expect(report.instructions.end == 1)
    #expect(report.instructions.pulse == report.pulses)
    #expect(report.rawRatio == Double(report.rawSampleBytes) / Double(report.programBytes))
    #expect(report.deviceNotes.isEmpty)
}

@Test func longFullScaleDriveGetsADeviceNote() throws {
    let pattern = HapticPattern(events: [.continuous(at: 0, duration: 31, intensity: 1, sharpness: 0)])
    let report = try PatternCompiler.compile(pattern, profile: CompilerFixtures.defaultProfile).report
    #expect(report.deviceNotes.count == 1)
    #expect(report.deviceNotes.first?.contains("safety limit") == true)
    #expect(report.fidelity.withinTolerance)
}

@Test func otherTickRatesPlayTransientsThroughTheChannel() throws {
    // At 500 Hz a 20 ms tap is 10 ticks but the kernel's pulse is 20: the channel plays it.
    let pattern = HapticPattern(events: [
        .transient(at: 0.1, intensity: 1, sharpness: 0),
        .continuous(at: 0.2, duration: 0.3, intensity: 0.7, sharpness: 0.4, attack: 0.5),
    ])
    let compiled = try PatternCompiler.compile(pattern, profile: CompilerFixtures.defaultProfile, options: CompileOptions(tickRate: 500))
    #expect(compiled.program.header.rate == 500)
    #expect(compiled.report.pulses == 0)
    #expect(compiled.report.totalTicks == 250)
    #expect(compiled.report.fidelity.withinTolerance)
}

@Test func simulationCoversTheProgramTheBrakeAndATail() throws {
    let pattern = try CompilerFixtures.shippedPattern("mkuczera__react-native-haptic-feedback__heartbeat.ahap")
    for profile in ActuatorProfile.builtIns {
        let compiled = try PatternCompiler.compile(pattern, profile: profile)
        let playback = compiled.simulate(on: profile, tailTicks: 50)
        let brake = profile.brakeTicks()
        #expect(playback.drive.count == compiled.report.totalTicks + brake + 50)
        #expect(playback.response.count == playback.drive.count)
        // The BRAKE flag for the profile's brake time right after the program, then idle.
        let flags = playback.drive[compiled.report.totalTicks...].map(\.isBraking)
        #expect(flags == Array(repeating: true, count: brake) + Array(repeating: false, count: 50))
        // Two taps, two driven stretches, the actuator moving during each (a 10-20 ms tap is too
        // short for some parts to reach half their steady level: rise times may be nil).
        #expect(playback.edges.count == 2)
        for edge in playback.edges {
            #expect(playback.response[edge.endTick - 1].envelope > 0)
        }
    }
}
