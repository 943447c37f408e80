import Foundation

/// How long a file took to load (`haptic inspect --timing`): read once, decoded several times,
/// each decode on the wall clock and on the decoding thread's CPU clock. On a loaded machine the
/// CPU time is the stable figure; the wall-clock time includes waiting for a core.
public struct AHAPLoadTiming: Sendable, Hashable {
    public var bytes: Int
    public var readSeconds: Double
    public var decodeSeconds: [Double]
    public var decodeCPUSeconds: [Double]

    public var best: Double { decodeSeconds.min() ?? 0 }
    public var bestCPU: Double { decodeCPUSeconds.min() ?? 0 }
}

extension AHAPDecoder {
    /// Reads `file` once and decodes it `runs` times (1 or more), timing each: the last decode's
    /// result, and the timing (nil when the file could not be read).
    public func decodeTimed(contentsOfFile file: String, runs: Int) -> (result: Result<AHAPDocument, AHAPError>, timing: AHAPLoadTiming?) {
        let clock = ContinuousClock()
        let readStart = clock.now
        let bytes: [UInt8]
        do {
            bytes = try AHAPDecoder.readFile(file)
        } catch {
            return (.failure(error), nil)
        }
        let readSeconds = Self.seconds(clock.now - readStart)
        var wall: [Double] = []
        var cpu: [Double] = []
        var result: Result<AHAPDocument, AHAPError> = .failure(AHAPError(file: file, message: "not decoded"))
        for _ in 0..<runs {
            let start = clock.now
            let cpuStart = Self.threadCPUSeconds()
            result = Result { () throws(AHAPError) -> AHAPDocument in try decode(bytes, file: file) }
            cpu.append(Self.threadCPUSeconds() - cpuStart)
            wall.append(Self.seconds(clock.now - start))
        }
        return (result, AHAPLoadTiming(bytes: bytes.count, readSeconds: readSeconds, decodeSeconds: wall, decodeCPUSeconds: cpu))
    }

    private static func threadCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
