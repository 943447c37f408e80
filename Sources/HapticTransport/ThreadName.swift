import Foundation

/// Names the calling thread for debuggers and /proc/self/task/*/comm (Linux keeps 15
/// characters). glibc declares pthread_setname_np only under _GNU_SOURCE, so it is looked up.
package func nameCurrentThread(_ name: String) {
    #if os(Linux)
        typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> CInt
        if let symbol = dlsym(dlopen(nil, RTLD_NOW), "pthread_setname_np") {
            _ = unsafeBitCast(symbol, to: SetName.self)(pthread_self(), String(name.prefix(15)))
        }
    #else
        Thread.current.name = name
    #endif
}
