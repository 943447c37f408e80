import Foundation
import HapticTransport
import Testing

@Suite struct MemoryTransportTests {
    @Test func perfectLinkCarriesBytesBothWays() throws {
        let (a, b) = MemoryTransport.pair()
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try a.write(data, timeout: 1)
        #expect(try b.read(maxCount: 10, timeout: 0) == Array(data[0..<10]))  // returns what is there, no more
        #expect(try readExactly(b, count: 990) == Array(data[10...]))
        try b.write([1, 2, 3], timeout: 1)
        #expect(try readExactly(a, count: 3) == [1, 2, 3])
        #expect(try a.read(maxCount: 8, timeout: 0.02) == [])
        #expect(
            a.faultCounts
                == {
                    var c = FaultCounts()
                    c.bytes = 1000
                    return c
                }())
    }

    /// The same seed gives the same faults whatever the write chunking; another seed does not.
    @Test func faultsAreDeterministicPerSeed() throws {
        let profile = FaultProfile(drop: 0.05, duplicate: 0.05, corrupt: 0.05)
        let data = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        func run(seed: UInt64, chunk: Int) throws -> ([UInt8], FaultCounts) {
            let (a, b) = MemoryTransport.pair(aToB: profile, seed: seed)
            for start in stride(from: 0, to: data.count, by: chunk) {
                try a.write(Array(data[start..<min(data.count, start + chunk)]), timeout: 1)
            }
            a.close()
            var received: [UInt8] = []
            while true {
                do { received += try b.read(maxCount: 4096, timeout: 1) } catch { break }
            }
            return (received, a.faultCounts)
        }
        let first = try run(seed: 42, chunk: 5000)
        let second = try run(seed: 42, chunk: 37)
        let other = try run(seed: 43, chunk: 5000)
        #expect(first.0 == second.0)
        #expect(first.1 == second.1)
        #expect(first.0 != other.0)
        let counts = first.1
        #expect(counts.bytes == 5000)
        #expect(first.0.count == 5000 - counts.dropped + counts.duplicated)
        // Rates near the profile's: 250 expected each, binomial sd ~15.
        for count in [counts.dropped, counts.corrupted] { #expect((175...325).contains(count)) }
        // Duplicates are drawn only for bytes that were not dropped.
        #expect((165...315).contains(counts.duplicated))
    }

    @Test func corruptionFlipsBitsAndNothingElse() throws {
        let (a, b) = MemoryTransport.pair(aToB: FaultProfile(corrupt: 1), seed: 1)
        let data = [UInt8](repeating: 0xA5, count: 200)
        try a.write(data, timeout: 1)
        let received = try readExactly(b, count: 200)
        #expect(received.count == 200)
        #expect(received.allSatisfy { $0 != 0xA5 })
        #expect(a.faultCounts.corrupted == 200)
    }

    @Test func delayHoldsBytesBackButKeepsTheirOrder() throws {
        let (a, b) = MemoryTransport.pair(aToB: FaultProfile(delay: 1, maxDelay: 0.2), seed: 3)
        let data = (0..<64).map(UInt8.init)
        let start = monotonicSeconds()
        try a.write(data, timeout: 1)
        let received = try readExactly(b, count: 64, timeout: 2)
        #expect(received == data)
        // 64 delays uniform in [0, 0.2): the largest is almost surely past 0.15 s (1 - 0.75^64).
        #expect(monotonicSeconds() - start >= 0.15)
        #expect(a.faultCounts.delayed == 64)
    }

    @Test func cutAfterDeliversExactlyThatManyBytesThenDisconnects() throws {
        let (a, b) = MemoryTransport.pair(aToB: FaultProfile(cutAfter: 10), seed: 9)
        #expect(errorKind { try a.write(Array(0..<50), timeout: 1) } == .disconnected)
        #expect(try readExactly(b, count: 10) == Array(0..<10))
        #expect(errorKind { _ = try b.read(maxCount: 8, timeout: 1) } == .disconnected)
        #expect(errorKind { try b.write([1], timeout: 1) } == .disconnected)
    }

    @Test func cutAndCloseWakeABlockedReader() throws {
        for action in ["cut", "close peer", "close self"] {
            let (a, b) = MemoryTransport.pair()
            let reader = Background { () -> (TransportError.Kind?, Double) in
                let start = monotonicSeconds()
                let kind = errorKind { _ = try b.read(maxCount: 8, timeout: 5) }
                return (kind, monotonicSeconds() - start)
            }
            Thread.sleep(forTimeInterval: 0.05)
            switch action {
            case "cut": a.cut()
            case "close peer": a.close()
            default: b.close()
            }
            let outcome = try #require(reader.wait(timeout: 6))
            #expect(outcome.0 == (action == "close self" ? .closed : .disconnected), "\(action)")
            #expect(outcome.1 < 0.5, "\(action): \(outcome.1) s")
        }
    }

    @Test func aFullQueueTimesTheWriterOut() throws {
        let (a, b) = MemoryTransport.pair(capacity: 100)
        var kind: TransportError.Kind?
        let time = elapsed { kind = errorKind { try a.write([UInt8](repeating: 1, count: 150), timeout: 0.1) } }
        #expect(kind == .timedOut)
        #expect(time >= 0.09 && time < 1.0)  // the time-out, not a hang (room for a loaded machine)
        #expect(try readExactly(b, count: 100).count == 100)
        try b.discardInput()
    }

    @Test func discardDropsOnlyWhatHasArrived() throws {
        let (a, b) = MemoryTransport.pair()
        try a.write([1, 2, 3], timeout: 1)
        try b.discardInput()
        try a.write([4], timeout: 1)
        #expect(try readExactly(b, count: 1) == [4])
    }
}
