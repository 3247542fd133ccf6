import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Long output on a terminal goes through a pager, as git's does: the pager is `TENANTCTL_PAGER`, else `GIT_PAGER`,
/// else git's `core.pager`, else `PAGER`, else `less`; an empty one or `cat` means none. It runs through `/bin/sh -c`
/// with `LESS=FRX` and `LV=-c` unless they are set (git's defaults: quit when the text fits one screen, keep colour,
/// leave the text on the screen).
public enum Pager {
    /// The pager when none is configured.
    public static let fallback = "less"

    /// The pager command to run, or nil for none. `corePager` reads git's `core.pager` (asked only when neither
    /// `TENANTCTL_PAGER` nor `GIT_PAGER` is set).
    public static func command(variables: [String: String], corePager: () throws -> String?) rethrows -> String? {
        var chosen: String? = variables["TENANTCTL_PAGER"] ?? variables["GIT_PAGER"]
        if chosen == nil { chosen = try corePager() }
        let command = (chosen ?? variables["PAGER"] ?? fallback).trimmingCharacters(in: .whitespaces)
        return command.isEmpty || command == "cat" ? nil : command
    }

    /// The pager's environment: `variables` with `LESS=FRX` and `LV=-c` unless they are set.
    public static func environment(_ variables: [String: String]) -> [String: String] {
        var environment = variables
        if environment["LESS"] == nil { environment["LESS"] = "FRX" }
        if environment["LV"] == nil { environment["LV"] = "-c" }
        return environment
    }

    /// How many terminal lines `text` takes on a terminal `columns` wide (a line wider than that wraps).
    public static func height(of text: String, columns: Int) -> Int {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        let width = max(columns, 1)
        return lines.reduce(0) { total, line in
            total + max(1, (TextWidth.of(String(line)) + width - 1) / width)
        }
    }

    /// The number of rows of the terminal: `LINES` when it is a positive number, else the terminal on `descriptor`,
    /// else nil (unknown: the output is paged whatever its length, as git pages it).
    public static func rows(variables: [String: String], descriptor: Int32 = STDOUT_FILENO) -> Int? {
        if let text = variables["LINES"], let value = Int(text.trimmingCharacters(in: .whitespaces)), value > 0 {
            return value
        }
        var size = winsize()
        #if os(Linux)
            let request = UInt(TIOCGWINSZ)
        #else
            let request = TIOCGWINSZ
        #endif
        guard ioctl(descriptor, request, &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    /// A pager that could not be started: not found, not executable, or the shell could not run it (exit 126 or
    /// 127). Nothing was shown; the caller prints the text itself, as git does after `cannot run <pager>`.
    public struct CannotRun: Error, Sendable, CustomStringConvertible {
        public var command: String
        public var reason: String
        public var description: String { "cannot run the pager (\(command)): \(reason)" }
    }

    /// Whether `command` is a plain program with arguments (`less -S`), no shell syntax: it then replaces the shell.
    static func isPlain(_ command: String) -> Bool {
        command.allSatisfy { !"|&;<>()$`\\\"'*?[]#~={}!\n".contains($0) }
    }

    /// Why the program a plain `command` starts cannot run (not on `PATH`, or not executable), or nil when it can;
    /// a pager with shell syntax is left to the shell (its exit status 126 or 127 says it could not run it).
    static func unrunnable(_ command: String, path: String?) -> String? {
        guard isPlain(command), let program = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first
        else { return nil }
        let name = String(program)
        if name.contains("/") {
            return FileManager.default.isExecutableFile(atPath: name) ? nil : "\(name) is no executable file"
        }
        let directories = (path ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false)
        let found = directories.contains { directory in
            FileManager.default.isExecutableFile(atPath: (directory.isEmpty ? "." : String(directory)) + "/" + name)
        }
        return found ? nil : "\(name) is not found on PATH"
    }

    /// Shows `text` through `command` (its standard input a pipe, its output this process's terminal) and waits
    /// until the person quits it. A pager quit before reading everything is no error; one that cannot be started
    /// is (``CannotRun``: the caller prints the text itself then).
    public static func show(_ text: String, command: String, environment: [String: String]) throws {
        if let reason = unrunnable(command, path: environment["PATH"]) {
            throw CannotRun(command: command, reason: reason)
        }
        _ = SpawnedProcess.ignoreSigpipe
        let input = try SpawnedProcess.pipePair()
        var flags: Int32 = 0
        #if canImport(Darwin)
            flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        // A plain command (`less -S`) replaces the shell, as git runs it without one: the pager alone then gets the
        // terminal's signals.
        let plain = isPlain(command)
        var shellArguments = [plain ? "exec " + command : command]
        shellArguments.insert("-c", at: 0)  // sh's own option (not git's -c)
        let started = PosixSpawn.prepared(
            "/bin/sh", shellArguments, environment: Self.environment(environment),
            defaultSignals: [SIGPIPE, SIGINT, SIGTERM, SIGCHLD], flags: flags,
            fileActions: { actions in
                posix_spawn_file_actions_adddup2(&actions, input.read, 0)
                #if canImport(Darwin)
                    posix_spawn_file_actions_addinherit_np(&actions, 1)
                    posix_spawn_file_actions_addinherit_np(&actions, 2)
                #endif
                SpawnedProcess.closeInheritedDescriptors(&actions)
            }
        ) { spawn in spawn() }
        close(input.read)
        let pid: pid_t
        switch started {
        case .success(let started): pid = started
        case .failure(let failure):
            close(input.write)
            throw CannotRun(command: command, reason: failure.reason)
        }
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = systemWrite(input.write, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    break  // the pager quit (EPIPE): the rest is not wanted
                }
            }
        }
        close(input.write)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // The shell's own codes for a command it could not find (127) or not execute (126): nothing was shown.
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        if exited && (code == 126 || code == 127) {
            throw CannotRun(command: command, reason: "the shell could not start it (exit \(code))")
        }
    }
}
