import ArgumentParser

@main
struct Haptic: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "haptic",
        abstract: "Take haptic patterns (AHAP, presets) to an LRA or ERM actuator on a microcontroller, or to a virtual one.",
        version: "0.1.0",
        subcommands: [Inspect.self, Ports.self, Render.self, Presets.self, Export.self, Compile.self, Bench.self, Play.self, Emulate.self, Profile.self]
    )
}
