import Foundation
import TenantKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An ssh git server on 127.0.0.1 for tests: a throwaway OpenSSH `sshd -D` with a generated host key, accepting one
/// generated client key (public-key authentication only), serving the bare repositories by absolute path
/// (`ssh://<user>@127.0.0.1:<port>/<path>`). The client side is ``sshCommand`` (`GIT_SSH_COMMAND`): the generated
/// key only, the server's host key pinned in a known-hosts file, `BatchMode=yes`. Everything lives in the sandbox;
/// sshd stops when the server is released (or ``stop()``). In a suite with the `.sharedServers` trait the suite's
/// one sshd (``TestServers``) accepts the test's own client key instead, and stops when the suite ends.
///
/// Needs `sshd`, `ssh` and `ssh-keygen` (Debian: `apt-get install openssh-server openssh-client`, as `.ci/run`
/// does); ``unavailableReason`` says what is missing.
public final class GitSSHServer: Sendable {
    /// The port sshd listens on.
    public let port: Int
    /// The user to log in as (the user running the tests: sshd without root privileges can only log in as itself).
    public let user: String
    /// The client's private key (authorised).
    public let clientKey: String
    /// A second private key the server does not accept (wrong credentials).
    public let strangerKey: String
    /// The known-hosts file with the server's host key.
    public let knownHosts: String
    /// sshd: this server's own, or the one its suite shares (``TestServers``).
    private let processes: Processes
    /// Whether ``stop()`` stops sshd (a server of its own).
    private let owned: Bool
    private let ssh: String

    /// Why the server cannot run on this machine, or nil when it can.
    public static var unavailableReason: String? {
        let missing = ["sshd", "ssh", "ssh-keygen"].filter { TestDaemon.find([$0]) == nil }
        guard missing.isEmpty else {
            return "ssh server tests skipped: \(missing.joined(separator: ", ")) not installed "
                + "(apt-get install openssh-server openssh-client; .ci/run installs them)"
        }
        if let user = lockedAccount() {
            return "ssh server tests skipped: the account \(user) the tests log in as is locked in /etc/shadow "
                + "(a password field starting with '!'), and sshd without PAM refuses locked accounts"
        }
        return nil
    }

    /// The user running the tests when /etc/shadow marks the account locked, else nil (also when the file cannot be
    /// read: then sshd decides, and a refusal fails the test with sshd's log).
    static func lockedAccount() -> String? {
        let user = NSUserName()
        guard let shadow = FileManager.default.contents(atPath: "/etc/shadow") else { return nil }
        return isLocked(user, shadow: String(decoding: shadow, as: UTF8.self)) ? user : nil
    }

    /// Whether `shadow` (the text of /etc/shadow) marks `user` locked: `!` before the password field.
    public static func isLocked(_ user: String, shadow: String) -> Bool {
        for line in shadow.split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            if fields.count > 1, fields[0] == user { return fields[1].hasPrefix("!") }
        }
        return false
    }

    /// Starts sshd in `sandbox`, or, in a suite that shares its servers (``TestServers``), authorises a client key
    /// of this test's own on the suite's sshd. The keys are in the sandbox either way.
    public init(in sandbox: GitSandbox) throws {
        guard let sshPath = TestDaemon.find(["ssh"]), let keygen = TestDaemon.find(["ssh-keygen"]) else {
            throw SandboxError(description: Self.unavailableReason ?? "no ssh server")
        }
        ssh = sshPath
        let directory = sandbox.path("ssh-server")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for key in ["client_key", "stranger_key"] {
            try Self.generateKey(keygen, "\(directory)/\(key)", comment: key, sandbox: sandbox)
        }
        clientKey = "\(directory)/client_key"
        strangerKey = "\(directory)/stranger_key"
        if let shared = TestServers.current {
            processes = try shared.ssh(in: sandbox)
            owned = false
        } else {
            processes = try Processes(directory: directory, environment: sandbox.environment, sandbox: sandbox)
            owned = true
        }
        try processes.authorise(String(contentsOfFile: "\(clientKey).pub", encoding: .utf8))
        knownHosts = processes.knownHosts
        user = processes.user
        port = processes.port
    }

    static func generateKey(_ keygen: String, _ path: String, comment: String, sandbox: GitSandbox) throws {
        let result = try sandbox.run(keygen, ["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", path])
        guard result.status == 0 else { throw SandboxError(description: "ssh-keygen: \(result.stderr)") }
    }

    deinit { stop() }

    /// Stops sshd of a server of its own (a shared one stops with its suite). Idempotent.
    public func stop() { if owned { processes.stop() } }

    /// What sshd logged (authentication attempts; on a shared server, those of every test of the suite).
    public var log: String { processes.log }

    /// Whether sshd logged a login with this test's client key (its fingerprint), not just anyone's.
    public func acceptedClientKey() throws -> Bool {
        guard let keygen = TestDaemon.find(["ssh-keygen"]) else { return false }
        let result = try PlainProcess.run(
            keygen, ["-l", "-E", "sha256", "-f", "\(clientKey).pub"], environment: ProcessInfo.processInfo.environment)
        let words = String(decoding: result.stdout, as: UTF8.self).split(separator: " ")
        guard result.status == 0, words.count > 1 else { return false }
        return log.split(separator: "\n").contains { $0.contains("Accepted publickey") && $0.contains(words[1]) }
    }

    /// sshd with a generated host key, accepting the keys in its authorised-keys file.
    final class Processes: Sendable {
        let port: Int
        let user: String
        let knownHosts: String
        private let authorizedKeys: String
        private let sshd: TestDaemon
        private let lock = Locked(())

        /// Starts sshd; host key, configuration and log in `directory`.
        init(directory: String, environment: [String: String], sandbox: GitSandbox) throws {
            guard let sshdPath = TestDaemon.find(["sshd"]), let keygen = TestDaemon.find(["ssh-keygen"]) else {
                throw SandboxError(description: GitSSHServer.unavailableReason ?? "no ssh server")
            }
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try GitSSHServer.generateKey(keygen, "\(directory)/host_key", comment: "host_key", sandbox: sandbox)
            knownHosts = "\(directory)/known_hosts"
            authorizedKeys = "\(directory)/authorized_keys"
            try "".write(toFile: authorizedKeys, atomically: true, encoding: .utf8)
            user = GitSSHServer.currentUser()
            if getuid() == 0 {
                // sshd started by root wants its privilege-separation directory (the package's service would make it).
                try FileManager.default.createDirectory(
                    atPath: "/run/sshd", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            }
            let hostKey = try String(contentsOfFile: "\(directory)/host_key.pub", encoding: .utf8)
                .split(separator: " ").prefix(2).joined(separator: " ")
            let knownHosts = knownHosts
            let started = try TestDaemon.startListening("sshd") { port in
                try "[127.0.0.1]:\(port) \(hostKey)\n".write(toFile: knownHosts, atomically: true, encoding: .utf8)
                try GitSSHServer.config(port: port, directory: directory).write(
                    toFile: "\(directory)/sshd_config", atomically: true, encoding: .utf8)
                return try TestDaemon(
                    sshdPath, ["-D", "-e", "-f", "\(directory)/sshd_config"], environment: environment,
                    log: "\(directory)/sshd.log")
            }
            port = started.port
            sshd = started.daemon
        }

        deinit { stop() }

        /// Adds a public key (one line) to the keys sshd accepts; sshd reads the file at each login.
        func authorise(_ publicKey: String) throws {
            try lock.withLock { _ in
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: authorizedKeys))
                defer { try? handle.close() }
                try handle.seekToEnd()
                try handle.write(contentsOf: Data((publicKey.hasSuffix("\n") ? publicKey : publicKey + "\n").utf8))
            }
        }

        var log: String { sshd.output }

        /// Stops sshd. Idempotent.
        func stop() { sshd.stop() }
    }

    /// The URL of the repository at `path` (absolute).
    public func url(_ path: String) -> String { "ssh://\(user)@127.0.0.1:\(port)\(path)" }

    /// `GIT_SSH_COMMAND` for a client with `key` (default: the authorised one): only that key, the server's host key
    /// pinned, never a prompt.
    public func sshCommand(key: String? = nil) -> String {
        [
            ssh, "-F", "/dev/null", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none",
            "-o", "UserKnownHostsFile=\(knownHosts)", "-o", "StrictHostKeyChecking=yes", "-o", "ConnectTimeout=10",
            "-i", key ?? clientKey,
        ].joined(separator: " ")
    }

    static func currentUser() -> String {
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return "root" }
        return String(cString: name)
    }

    static func config(port: Int, directory: String) -> String {
        """
        Port \(port)
        ListenAddress 127.0.0.1
        HostKey \(directory)/host_key
        PidFile \(directory)/sshd.pid
        AuthorizedKeysFile \(directory)/authorized_keys
        StrictModes no
        PubkeyAuthentication yes
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        UsePAM no
        PermitRootLogin prohibit-password
        AllowTcpForwarding no
        AllowAgentForwarding no
        X11Forwarding no
        PermitTTY no
        PrintMotd no
        LogLevel VERBOSE

        """
    }
}
