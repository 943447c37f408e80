// SerialBridge was one module with five jobs. It is now a facade that re-exports the modules it
// was split into, so `import SerialBridge` keeps compiling (README, "Modules"): new code imports
// what it uses.
//
// - HapticBridge: the device facade (`HapticDevice`, prepared patterns, felt prediction)
// - HapticVirtualDevice: the firmware model served on a pty (`VirtualDevice`)
// - HapticTrace: the trace format, its reader and its checks (`DeviceTrace`)
// - HapticProfiling: the latency profiler and its report (`LatencyProfiler`, with HdrHistogram)
@_exported import HapticBridge
@_exported import HapticProfiling
@_exported import HapticTrace
@_exported import HapticVirtualDevice
