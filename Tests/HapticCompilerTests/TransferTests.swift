import Foundation
import Testing

@testable import HapticCompiler

struct TransferTests {
    static let square = IntensityTransfer(curve: .power(exponent: 2))

    @Test func powerTwoIsRound255ISquared() {
        // The contract's example transfer, A = round(255 * I^2), checked on a fine grid.
        for step in 0...10_000 {
            let i = Double(step) / 10_000
            #expect(Int(Self.square.amplitudeCode(forIntensity: i)) == Int((255 * i * i).rounded()))
        }
        // Ties round away from zero: 255 I^2 = 127.5 at I = sqrt(0.5); the nearest doubles fall either side.
        #expect(Self.square.amplitudeCode(forIntensity: 0.5) == 64)  // 63.75
        #expect(Self.square.amplitudeCode(forIntensity: 0.1) == 3)  // 2.55
        // Code 0 covers [0, sqrt(0.5 / 255)): below it 255 I^2 rounds to 0.
        let zero = Self.square.intensityInterval(forAmplitudeCode: 0)!
        #expect(zero.lowerBound == 0)
        #expect(abs(zero.upperBound - (0.5 / 255).squareRoot()) < 1e-12)
    }

    @Test func endpointsAndOutOfRange() {
        for profile in ActuatorProfile.builtIns {
            #expect(profile.amplitudeCode(forIntensity: 0) == 0, "\(profile.name)")
            #expect(profile.amplitudeCode(forIntensity: 1) == 255, "\(profile.name)")
            #expect(profile.amplitudeCode(forIntensity: -0.5) == 0)
            #expect(profile.amplitudeCode(forIntensity: .nan) == 0)
            #expect(profile.amplitudeCode(forIntensity: 1.02) == 255)  // real files carry 1.02
            #expect(profile.amplitudeCode(forIntensity: .infinity) == 255)
            #expect(profile.amplitudeCode(forIntensity: .leastNonzeroMagnitude) == profile.transfer.floorCode)
        }
    }

    @Test func everyProfileTransferIsMonotone() {
        for profile in ActuatorProfile.builtIns {
            var previous: UInt8 = 0
            for step in 0...100_000 {
                let code = profile.amplitudeCode(forIntensity: Double(step) / 100_000)
                #expect(code >= previous, "\(profile.name) at \(step)")
                previous = code
            }
        }
    }

    @Test func floorLiftsNonZeroIntensitiesOntoTheRunningRange() {
        let ramp = IntensityTransfer(curve: .linear, floor: 0.65)
        #expect(ramp.floorCode == 166)  // 165.75
        #expect(ramp.amplitudeCode(forIntensity: 1e-9) == 166)
        #expect(ramp.amplitudeCode(forIntensity: 0.5) == 166 + 45)  // 89 * 0.5 = 44.5 -> 45
        #expect(ramp.amplitudeCode(forIntensity: 1) == 255)
        // Codes between 0 and the floor are never produced.
        #expect(ramp.intensityInterval(forAmplitudeCode: 100) == nil)
        #expect(ramp.intensityInterval(forAmplitudeCode: 0) == 0...0)
    }

    @Test func intervalsInvertTheTransferExactly() {
        let transfers =
            ActuatorProfile.builtIns.map(\.transfer) + [
                IntensityTransfer(curve: .power(exponent: 1.5)),
                IntensityTransfer(
                    curve: .table([
                        .init(intensity: 0, level: 0), .init(intensity: 0.3, level: 0.05),
                        .init(intensity: 1, level: 1),
                    ]), floor: 0.1),
            ]
        for transfer in transfers {
            var covered = 0
            for c in 0...255 {
                let code = UInt8(c)
                guard let range = transfer.intensityInterval(forAmplitudeCode: code) else {
                    #expect(c > 0 && c < Int(transfer.floorCode), "code \(c) of \(transfer) has no interval")
                    continue
                }
                covered += 1
                #expect(transfer.amplitudeCode(forIntensity: range.lowerBound) == code)
                #expect(transfer.amplitudeCode(forIntensity: range.upperBound) == code)
                if range.lowerBound > 0 { #expect(transfer.amplitudeCode(forIntensity: range.lowerBound.nextDown) < code) }
                if range.upperBound < 1 { #expect(transfer.amplitudeCode(forIntensity: range.upperBound.nextUp) > code) }
                let middle = transfer.intensity(forAmplitudeCode: code)!
                #expect(transfer.amplitudeCode(forIntensity: middle) == code)
            }
            // Continuous curves reach every code from the floor up.
            #expect(covered == 256 - max(0, Int(transfer.floorCode) - 1))
        }
    }

    @Test func tableInterpolatesLinearly() {
        let table = IntensityTransfer(
            curve: .table([
                .init(intensity: 0, level: 0), .init(intensity: 0.5, level: 0.2),
                .init(intensity: 1, level: 1),
            ]))
        #expect(table.level(forIntensity: 0.25) == 0.1)
        #expect(abs(table.level(forIntensity: 0.75) - 0.6) < 1e-15)
        #expect(table.amplitudeCode(forIntensity: 0.5) == 51)  // 255 * 0.2
    }

    @Test func sharpnessCodeIsTheContractRounding() {
        #expect(SharpnessRendering.code(forSharpness: 0) == 0)
        #expect(SharpnessRendering.code(forSharpness: 1) == 255)
        #expect(SharpnessRendering.code(forSharpness: 0.5) == 128)  // 127.5 rounds away from zero
        #expect(SharpnessRendering.code(forSharpness: -1) == 0)  // real files carry -1.0
        #expect(SharpnessRendering.code(forSharpness: .nan) == 0)
        #expect(SharpnessRendering.code(forSharpness: 3) == 255)
        var previous: UInt8 = 0
        for step in 0...10_000 {
            let s = Double(step) / 10_000
            let code = SharpnessRendering.code(forSharpness: s)
            #expect(Int(code) == Int((s * 255).rounded()))
            #expect(code >= previous)
            previous = code
        }
    }

    @Test func frequencyRenderingIsMonotoneWithExactEndsAndInverse() throws {
        let renderings: [SharpnessRendering] = [
            .frequency(minHz: 225, maxHz: 245, scale: .linear),
            .frequency(minHz: 65, maxHz: 300, scale: .log),
        ]
        for rendering in renderings {
            guard case .frequency(let lo, let hi, _) = rendering else { continue }
            #expect(rendering.frequency(forCode: 0) == lo)
            #expect(abs(try #require(rendering.frequency(forCode: 255)) - hi) < 1e-12)
            var previous = 0.0
            for c in 0...255 {
                let f = try #require(rendering.frequency(forCode: UInt8(c)))
                #expect(f > previous)
                previous = f
                #expect(rendering.code(forFrequency: f) == UInt8(c))
            }
            #expect(rendering.code(forFrequency: lo / 2) == 0)
            #expect(rendering.code(forFrequency: hi * 2) == 255)
            #expect(rendering.edgeStrength(forCode: 0) == 1)
        }
        // Linear: 20 Hz over 255 codes; log: code 128 is the geometric middle, 140 Hz.
        #expect(abs(renderings[0].frequency(forCode: 51)! - 229) < 1e-12)
        #expect(abs(renderings[1].frequency(forCode: 128)! - 140.0) < 0.1)
    }

    @Test func edgeRenderingScalesFromTheMinimum() {
        let rendering = SharpnessRendering.edges(minimumEdge: 0.5)
        #expect(rendering.edgeStrength(forCode: 0) == 0.5)
        #expect(rendering.edgeStrength(forCode: 255) == 1)
        #expect(rendering.frequency(forCode: 100) == nil)
        #expect(rendering.code(forFrequency: 200) == nil)
        for c in 1...255 { #expect(rendering.edgeStrength(forCode: UInt8(c)) > rendering.edgeStrength(forCode: UInt8(c - 1))) }
    }

    @Test func driveFrequencyPerKind() throws {
        let byName = Dictionary(uniqueKeysWithValues: ActuatorProfile.builtIns.map { ($0.name, $0) })
        let closed = try #require(byName["lra-drv2605l-170hz-10mm"])
        #expect((0...255).allSatisfy { closed.driveFrequency(forSharpnessCode: UInt8($0)) == 170 })
        #expect(closed.sharpnessCode(forDriveFrequency: 170) == nil)
        let coin = try #require(byName["erm-coin-10mm"])
        #expect(coin.driveFrequency(forSharpnessCode: 128) == nil)
        let open = try #require(byName["lra-235hz-8mm"])
        #expect(open.driveFrequency(forSharpnessCode: 0) == 225)
        #expect(open.driveFrequency(forSharpnessCode: 255) == 245)
        #expect(open.sharpnessCode(forDriveFrequency: 235) == 128)  // 127.5 -> 128
        let coil = try #require(byName["vc-haptuator-mark2d"])
        #expect(coil.driveFrequency(forSharpnessCode: 0) == 65)
        #expect(coil.sharpnessCode(forSharpness: 0.5) == 128)
    }
}
