import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How much memory an audit keeps resident: glibc's allocator gives each thread that allocates an arena of its own
/// (up to eight per core), and memory freed in one arena is kept there for that arena's later use. An audit's phases
/// run on worker threads (the listings `jobs` at a time, the tenant files, the rows and the JSON on every core), so
/// each phase's temporaries were left behind in a different arena: at 10,000 tenants × 50 modules the resident set
/// was about three times the live heap (heaptrack: 161 MB at the peak, 411–470 MB resident). With the arenas capped,
/// a later phase reuses what an earlier one freed.
enum AuditMemory {
    /// Caps glibc's arenas at the cores, at most four (more threads then share an arena; the CPU time measured the
    /// same with 2, 4 and glibc's default at 1000 × 50). Process-wide and lasting: audit is the process's command. A
    /// no-op where the allocator is not glibc's, or when glibc refuses the setting (memory stays as it was).
    static func limitArenas() {
        #if canImport(Glibc)
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            // `mallopt` is not in the Glibc module's headers; M_ARENA_MAX is -8 in malloc.h.
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            let arenas = Int32(min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4))
            _ = mallopt(-8, arenas)  // a hint: when refused, only the memory kept differs
        #endif
    }
}
