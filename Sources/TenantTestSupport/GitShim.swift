import Foundation

/// A stand-in for git, selected with `--git` / `TENANTCTL_GIT`, that logs every call and can inject faults.
///
/// Behaviour is chosen per run through environment variables, so production code has no test hooks:
/// - `SHIM_FAIL_AT=N`: call N prints an error and exits `SHIM_FAIL_STATUS` (default 1) without running git (use 128,
///   git's fatal status, where exit 1 is a legitimate answer: `config --get`, `rev-parse --verify --quiet`);
/// - `SHIM_KILL_AT=N`: call N sends SIGKILL to its parent (the tenantctl process) and exits;
/// - `SHIM_KILL_AFTER=N`: call N runs git, then sends SIGKILL to its parent (a push that landed, then the kill);
/// - `SHIM_SLEEP_AT=N` with `SHIM_SLEEP_SECONDS=S`: call N sleeps S seconds, then runs git;
/// - `SHIM_FILL_AT=N` with `SHIM_FILL_FILE=F`: call N first fills the file system of `F` (writes zeros to `F` until
///   it is full), then runs git: a disk that fills up while git writes.
/// Every call appends its arguments as one line to ``log`` (numbered by line, under a mutex, so that concurrent
/// calls such as parallel mirror fetches never share a number).
public struct GitShim: Sendable {
    /// The executable to pass as `--git`.
    public let path: String
    /// One line per call.
    public let log: String

    /// Shell lines for a hand-written stand-in for git: sets `here` to the directory of the call's `-C` (empty
    /// without one), for scripts that act on calls in one repository and pass the others on.
    public static let directoryOfTheCall = """
        here=''
        previous=''
        for argument in "$@"; do
            if [ "$previous" = -C ]; then here=$argument; fi
            previous=$argument
        done
        """

    /// Writes the shim into the sandbox.
    public init(in sandbox: GitSandbox, name: String = "git-shim", realGit: String? = nil) throws {
        let real = realGit ?? GitShim.findGit(sandbox.environment["PATH"] ?? "/usr/bin:/bin")
        log = sandbox.path("\(name).log")
        guard FileManager.default.createFile(atPath: log, contents: nil) else {
            throw SandboxError(description: "cannot create \(log)")
        }
        // A new log starts at call 1: a mutex a killed shim of the same name left has nothing left to guard.
        try? FileManager.default.removeItem(atPath: log + ".mutex")
        try? FileManager.default.removeItem(atPath: log + ".count")
        let script = """
            #!/bin/sh
            # Log and number the call under a mutex (mkdir is atomic), so concurrent calls never share a number; one
            # line per call (newlines in arguments, such as a commit message, become spaces). The number is kept in
            # a file beside the log, equal to its lines, read and written by the shell itself: a sweep makes
            # thousands of calls, and each program started per call costs. A SIGTERM (tenantctl stopping its git
            # children) waits until the mutex is released: a shim ended inside it would leave it behind, and every
            # later call would wait for it forever.
            trap 'terminated=1' TERM
            while ! mkdir '\(log).mutex' 2>/dev/null; do sleep 0.01; done
            case "$*" in
            *'\n'*) printf '%s\\n' "$(printf '%s' "$*" | tr '\\n' ' ')" >> '\(log)' ;;
            *) printf '%s\\n' "$*" >> '\(log)' ;;
            esac
            n=0
            if [ -s '\(log).count' ]; then read -r n < '\(log).count'; fi
            n=$((n + 1))
            echo "$n" > '\(log).count'
            rmdir '\(log).mutex'
            trap - TERM
            if [ -n "$terminated" ]; then exit 143; fi
            if [ -n "$SHIM_FAIL_AT" ] && [ "$n" -eq "$SHIM_FAIL_AT" ]; then
                echo "git-shim: injected failure at call $n" >&2
                exit "${SHIM_FAIL_STATUS:-1}"
            fi
            if [ -n "$SHIM_KILL_AT" ] && [ "$n" -eq "$SHIM_KILL_AT" ]; then
                kill -9 "$PPID"
                exit 137
            fi
            if [ -n "$SHIM_FILL_AT" ] && [ "$n" -eq "$SHIM_FILL_AT" ]; then
                dd if=/dev/zero of="$SHIM_FILL_FILE" bs=4096 2>/dev/null
            fi
            if [ -n "$SHIM_SLEEP_AT" ] && [ "$n" -eq "$SHIM_SLEEP_AT" ]; then
                # Stopped by SIGTERM as git would be: the sleep ends with the shim (it would hold the pipes open).
                sleep "${SHIM_SLEEP_SECONDS:-5}" &
                sleeper=$!
                trap 'kill $sleeper 2>/dev/null; exit 143' TERM
                wait $sleeper
                trap - TERM
            fi
            if [ -n "$SHIM_KILL_AFTER" ] && [ "$n" -eq "$SHIM_KILL_AFTER" ]; then
                '\(real)' "$@"
                status=$?
                kill -9 "$PPID"
                exit "$status"
            fi
            exec '\(real)' "$@"

            """
        path = try sandbox.writeExecutable("bin/\(name)", script)
    }

    /// The calls logged so far (arguments joined by spaces).
    public func calls() throws -> [String] {
        try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Forgets the logged calls.
    public func reset() throws {
        try Data().write(to: URL(fileURLWithPath: log))
        let count = log + ".count"
        if FileManager.default.fileExists(atPath: count) { try FileManager.default.removeItem(atPath: count) }
    }

    static func findGit(_ path: String) -> String {
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/git"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "/usr/bin/git"
    }
}

/// The built `tenantctl` executable, for the few tests that need a real process (exit codes, signals, kills).
public enum TenantctlBinary {
    /// Its path: `TENANTCTL_BINARY`, else next to the test bundle, else `.build/debug/tenantctl` of this package.
    public static func path(filePath: String = #filePath) -> String? {
        let fileManager = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["TENANTCTL_BINARY"],
            fileManager.isExecutableFile(atPath: explicit)
        {
            return explicit
        }
        var candidates: [URL] = []
        if let first = CommandLine.arguments.first {
            var url = URL(fileURLWithPath: first).resolvingSymlinksInPath()
            for _ in 0..<4 {
                url = url.deletingLastPathComponent()
                candidates.append(url.appendingPathComponent("tenantctl"))
            }
        }
        let package = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(package.appendingPathComponent(".build/debug/tenantctl"))
        return candidates.first { fileManager.isExecutableFile(atPath: $0.path) }?.path
    }
}
