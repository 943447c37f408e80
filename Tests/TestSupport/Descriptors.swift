import Foundation

/// Open descriptors of this process that refer to the pty whose slave is `slavePath`: the slave
/// itself, or /dev/ptmx opened as its master (fdinfo's tty-index). Counting only these keeps the
/// check exact while other tests open files in parallel.
public func descriptors(ofPTY slavePath: String) -> Int {
    let index = slavePath.split(separator: "/").last.map(String.init) ?? ""
    var count = 0
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)") else { continue }
        if target == slavePath {
            count += 1
        } else if target == "/dev/ptmx",
            let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(entry)", encoding: .utf8),
            info.split(separator: "\n").contains("tty-index:\t\(index)")
        {
            count += 1
        }
    }
    return count
}

/// Open descriptors whose target starts with `prefix` (e.g. "/dev/pts/", "/dev/ttyS0").
public func descriptors(withTargetPrefix prefix: String) -> Int {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).filter { entry in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"))?.hasPrefix(prefix) ?? false
    }.count
}
