import Foundation
import HapticTransport
import Testing

struct RunProcessTests {
    /// A child that fills stderr before it writes stdout (make printing a long error log) must not
    /// hang the caller: 1 MB each way is 16 times what a Linux pipe holds. `timeout` kills the child
    /// and its pipeline after a minute if the reader is stuck, so a regression fails instead of
    /// hanging. SIGKILL, because children of the test runner's threads start with SIGTERM blocked.
    @Test func drainsBothPipesAtOnce() throws {
        let megabyte = 1 << 20
        let script = "head -c \(megabyte) /dev/zero | tr '\\0' e >&2; head -c \(megabyte) /dev/zero | tr '\\0' o; exit 3"
        let result = try runProcess(executable: "/usr/bin/env", arguments: ["timeout", "-s", "KILL", "60", "sh", "-c", script])
        #expect(result.status == 3)
        #expect(result.stderr.count == megabyte && result.stderr.allSatisfy { $0 == UInt8(ascii: "e") })
        #expect(result.stdout.count == megabyte && result.stdout.allSatisfy { $0 == UInt8(ascii: "o") })
    }

    @Test func runsInTheGivenDirectory() throws {
        let result = try runProcess(executable: "/bin/sh", arguments: ["-c", "pwd"], directory: "/tmp")
        #expect(result.status == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "/tmp\n")
        #expect(result.stderr.isEmpty)
    }
}
