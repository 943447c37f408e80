// The simulated board needs libsimavr: built with the package trait "Emulator" only.
#if Emulator
    import AVREmulator
    import Foundation
    import TestSupport
    import Testing

    /// What `--firmware` accepts and where the CLI builds firmware when it is not given.
    @Suite struct FirmwareSourcesTests {
        @Test func onlyAnAVRELFIsAccepted() throws {
            #expect(FirmwareSources.problem(withELF: "/no/such/file.elf")?.contains("no such file") == true)
            #expect(FirmwareSources.problem(withELF: Repository.path("Examples/heartbeat.ahap"))?.contains("not an ELF file") == true)
            // The test runner itself is an ELF for the host's processor, not for an AVR.
            #expect(FirmwareSources.problem(withELF: CommandLine.arguments[0])?.contains("another processor") == true)
            let elf = try AVRFirmwareBuild(application: .selftest).build(repositoryRoot: Repository.root.path)
            #expect(FirmwareSources.problem(withELF: elf) == nil)
        }

        @Test func theCheckoutIsFoundFromASubfolderAndBuildsGoToAPerUserCache() {
            #expect(FirmwareSources.checkout(from: Repository.path("Examples/corpus")) == Repository.root.path)
            let cache = FirmwareSources.cacheDirectory(for: "/a/checkout", environment: ["HOME": "/home/u"])
            #expect(cache.hasPrefix("/home/u/.cache/hapticbridge/firmware/"))
            #expect(FirmwareSources.cacheDirectory(for: "/a/checkout", environment: ["XDG_CACHE_HOME": "/c"]).hasPrefix("/c/hapticbridge/firmware/"))
            #expect(cache != FirmwareSources.cacheDirectory(for: "/another/checkout", environment: ["HOME": "/home/u"]))
        }
    }
#endif
