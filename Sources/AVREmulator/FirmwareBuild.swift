import Foundation
import HapticCompiler

/// Builds a firmware ELF for the ATmega328P board port with its Makefile
/// (hardware/firmware/boards/atmega328p/Makefile) and returns its path. Builds are
/// serialised across processes with a lock file, since tests may build in parallel.
public struct AVRFirmwareBuild: Sendable, Hashable {
    /// The output stage; `pwm2` and `drv2605lX4` are the protocol 3.0 images (two H-bridges; up to
    /// four DRV2605L behind a TCA9548A), whose tick runs on Timer0.
    public enum Output: String, Sendable {
        case pwm, drv2605l, pwm2
        case drv2605lX4 = "drv2605l-x4"
    }
    public enum Actuator: String, Sendable { case lra, erm }
    /// What the image runs: the protocol device, the bring-up self-test, or the simulator's own test
    /// program for its I2C and Timer2 models (app_muxtest.c: not a firmware).
    public enum Application: String, Sendable { case device, selftest, muxtest }

    public var output: Output
    public var actuator: Actuator
    public var application: Application
    /// Extra make variables (BAUD, PROFILE, SUPPLY_MV, DRV_FLAGS).
    public var variables: [String: String]

    public init(
        output: Output = .pwm, actuator: Actuator = .lra, application: Application = .device,
        variables: [String: String] = [:]
    ) {
        self.output = output
        self.actuator = actuator
        self.application = application
        self.variables = variables
    }

    /// The actuator profile the image is built for: PROFILE, else the Makefile's default for the
    /// output stage and actuator kind.
    public var profileName: String {
        if let name = variables["PROFILE"] { return name }
        switch (output, actuator) {
        case (.pwm, .lra), (.pwm2, .lra): return "lra-170hz-10mm"
        case (.pwm, .erm), (.pwm2, .erm): return "erm-coin-10mm"
        case (.drv2605l, .lra), (.drv2605lX4, .lra): return "lra-drv2605l-170hz-10mm"
        case (.drv2605l, .erm), (.drv2605lX4, .erm): return "erm-cylinder-7mm"
        }
    }

    /// The H-bridge supply the image assumes: SUPPLY_MV, else the Makefile's 5,000 mV.
    public var supplyMillivolts: Int { variables["SUPPLY_MV"].flatMap { Int($0) } ?? PWMStageSettings.defaultSupplyMillivolts }

    /// The PWM stage's settings for this image (its profile among the built-in ones, its supply).
    public func pwmSettings() throws -> PWMStageSettings {
        guard let profile = ActuatorProfile.builtIns.first(where: { $0.name == profileName }) else {
            throw AVRFirmwareBuildError.noOutput("no built-in actuator profile \(profileName)")
        }
        return try PWMStageSettings(profile: profile, supplyMillivolts: supplyMillivolts)
    }

    var makeArguments: [String] {
        let extra = variables.sorted { $0.key < $1.key }
        // Builds with extra variables get their own directory (make cannot see variable changes).
        let variant = extra.map { "\($0.key)\($0.value)" }.joined(separator: "_")
            .map { $0.isLetter || $0.isNumber ? $0 : "_" }
        return ["OUTPUT=\(output.rawValue)", "ACTUATOR=\(actuator.rawValue)", "APP=\(application.rawValue)"]
            + extra.map { "\($0.key)=\($0.value)" } + (extra.isEmpty ? [] : ["VARIANT=\(String(variant))"])
    }

    /// Runs make on the board port of the checkout at `repositoryRoot` and returns the ELF's path.
    /// Images go to `buildDirectory` (default: the checkout's `hardware/firmware/build`).
    public func build(repositoryRoot: String, buildDirectory: String? = nil) throws(AVRFirmwareBuildError) -> String {
        do {
            return try BoardPortMake(board: "atmega328p", variables: makeArguments)
                .build(repositoryRoot: repositoryRoot, buildDirectory: buildDirectory)
        } catch {
            switch error {
            case .cannotRun(let reason): throw .make(status: -1, log: "cannot run make: \(reason)")
            case .failed(let status, let log): throw .make(status: status, log: log)
            case .noOutput(let path): throw .noOutput(path)
            }
        }
    }
}

public enum AVRFirmwareBuildError: Error, CustomStringConvertible {
    case make(status: Int32, log: String)
    case noOutput(String)

    public var description: String {
        switch self {
        case .make(let status, let log): return "make failed (status \(status)):\n\(log)"
        case .noOutput(let path): return "make did not produce \(path)"
        }
    }
}
