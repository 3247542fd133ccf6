import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An ssh git server on 127.0.0.1 for tests: a throwaway OpenSSH `sshd -D` with a generated host key, accepting one
/// generated client key (public-key authentication only), serving the bare repositories by absolute path
/// (`ssh://<user>@127.0.0.1:<port>/<path>`). The client side is ``sshCommand`` (`GIT_SSH_COMMAND`): the generated
/// key only, the server's host key pinned in a known-hosts file, `BatchMode=yes`. Everything lives in the sandbox;
/// sshd stops when the server is released (or ``stop()``).
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
    private let sshd: TestDaemon
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

    /// Starts sshd in `sandbox`.
    public init(in sandbox: GitSandbox) throws {
        guard let sshdPath = TestDaemon.find(["sshd"]), let sshPath = TestDaemon.find(["ssh"]),
            let keygen = TestDaemon.find(["ssh-keygen"])
        else { throw SandboxError(description: Self.unavailableReason ?? "no ssh server") }
        ssh = sshPath
        let directory = sandbox.path("ssh-server")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for key in ["host_key", "client_key", "stranger_key"] {
            let result = try sandbox.run(
                keygen, ["-q", "-t", "ed25519", "-N", "", "-C", key, "-f", "\(directory)/\(key)"])
            guard result.status == 0 else { throw SandboxError(description: "ssh-keygen: \(result.stderr)") }
        }
        clientKey = "\(directory)/client_key"
        strangerKey = "\(directory)/stranger_key"
        knownHosts = "\(directory)/known_hosts"
        try FileManager.default.copyItem(atPath: "\(clientKey).pub", toPath: "\(directory)/authorized_keys")
        user = Self.currentUser()
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
            try Self.config(port: port, directory: directory).write(
                toFile: "\(directory)/sshd_config", atomically: true, encoding: .utf8)
            return try TestDaemon(
                sshdPath, ["-D", "-e", "-f", "\(directory)/sshd_config"], environment: sandbox.environment,
                log: "\(directory)/sshd.log")
        }
        port = started.port
        sshd = started.daemon
    }

    deinit { stop() }

    /// Stops sshd. Idempotent.
    public func stop() { sshd.stop() }

    /// What sshd logged (authentication attempts).
    public var log: String { sshd.output }

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
