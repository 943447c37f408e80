import ArgumentParser
import Testing

@testable import HapticCLI

/// `haptic inspect` takes `preset:NAME` like render, compile and play (the README's demo does).
@Test func inspectAcceptsPresetsAndFailsOnUnknownNames() throws {
    let known = try Inspect.parse(["preset:impact.heavy", "--json"])
    try known.run()
    let unknown = try Inspect.parse(["preset:no-such-preset"])
    #expect(throws: ExitCode.self) { try unknown.run() }
}
