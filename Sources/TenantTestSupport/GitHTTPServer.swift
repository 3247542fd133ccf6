import Foundation

/// A smart-HTTP git server on 127.0.0.1 for tests: nginx with basic auth in front of `git http-backend` (through
/// fcgiwrap), serving every bare repository under a directory at `http://127.0.0.1:<port>/git/<name>.git`, for
/// reading and pushing. Everything (config, password file, logs, socket) lives in the sandbox; both programs run in
/// the foreground as children of the test and stop when the server is released (or ``stop()``).
///
/// Needs nginx and fcgiwrap (Debian: `apt-get install nginx-light fcgiwrap`, as `.ci/run` does) and
/// `git http-backend`; ``unavailableReason`` says what is missing.
public final class GitHTTPServer: Sendable {
    /// The user name basic auth accepts.
    public let user: String
    /// Its password.
    public let password: String
    /// The port nginx listens on.
    public let port: Int
    private let nginx: TestDaemon
    private let fcgiwrap: TestDaemon
    private let socket: String

    /// Why the server cannot run on this machine, or nil when it can.
    public static var unavailableReason: String? {
        var missing: [String] = []
        if TestDaemon.find(["nginx"]) == nil { missing.append("nginx") }
        if TestDaemon.find(["fcgiwrap"]) == nil { missing.append("fcgiwrap") }
        if httpBackend == nil { missing.append("git-http-backend") }
        guard !missing.isEmpty else { return nil }
        return "smart-HTTP server tests skipped: \(missing.joined(separator: ", ")) not installed "
            + "(apt-get install nginx-light fcgiwrap; .ci/run installs them)"
    }

    /// `git-http-backend` from git's exec path.
    static var httpBackend: String? {
        guard
            let output = try? PlainProcess.run(
                "/usr/bin/env", ["git", "--exec-path"], environment: ProcessInfo.processInfo.environment),
            output.status == 0
        else { return nil }
        let path =
            String(decoding: output.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            + "/git-http-backend"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Starts serving the bare repositories under `repositories` (an absolute path).
    public init(
        serving repositories: String, in sandbox: GitSandbox, user: String = "alice", password: String = "s3cret"
    ) throws {
        guard let nginxPath = TestDaemon.find(["nginx"]), let fcgiwrapPath = TestDaemon.find(["fcgiwrap"]),
            let backend = Self.httpBackend
        else { throw SandboxError(description: Self.unavailableReason ?? "no http server") }
        self.user = user
        self.password = password
        let directory = sandbox.path("http-server")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // A unix socket path must stay under ~100 bytes: keep it short, outside the (long) sandbox path.
        socket = NSTemporaryDirectory() + "/tfcgi-\(UUID().uuidString.prefix(8)).sock"
        // nginx's own scheme for a clear-text password in a test's password file.
        try "\(user):{PLAIN}\(password)\n".write(
            toFile: "\(directory)/htpasswd", atomically: true, encoding: .utf8)
        fcgiwrap = try TestDaemon(
            fcgiwrapPath, ["-s", "unix:\(socket)"], environment: sandbox.environment,
            log: "\(directory)/fcgiwrap.log")
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline && fcgiwrap.isRunning {
            usleep(20_000)
        }
        guard FileManager.default.fileExists(atPath: socket) else {
            fcgiwrap.stop()
            throw SandboxError(description: "fcgiwrap did not create \(socket): \(fcgiwrap.output)")
        }
        var started: (port: Int, daemon: TestDaemon)?
        var lastError: Error?
        for _ in 0..<3 where started == nil {
            do {
                let port = try TCPPort.free()
                let config = Self.config(
                    port: port, directory: directory, socket: socket, backend: backend, repositories: repositories,
                    home: sandbox.environment["HOME"] ?? directory, asRoot: getuid() == 0)
                try config.write(toFile: "\(directory)/nginx.conf", atomically: true, encoding: .utf8)
                let daemon = try TestDaemon(
                    nginxPath, ["-c", "\(directory)/nginx.conf", "-p", directory, "-e", "\(directory)/error.log"],
                    environment: sandbox.environment, log: "\(directory)/nginx.log")
                do {
                    try daemon.waitForPort(port)
                    started = (port, daemon)
                } catch {
                    daemon.stop()
                    throw error
                }
            } catch {
                lastError = error
            }
        }
        guard let started else {
            fcgiwrap.stop()
            try? FileManager.default.removeItem(atPath: socket)
            throw lastError ?? SandboxError(description: "nginx did not start")
        }
        port = started.port
        nginx = started.daemon
    }

    deinit { stop() }

    /// Stops nginx and fcgiwrap. Idempotent.
    public func stop() {
        nginx.stop()
        fcgiwrap.stop()
        try? FileManager.default.removeItem(atPath: socket)
    }

    /// The URL of repository `name` (`Article.git`) with the right credentials in it.
    public func url(_ name: String) -> String { url(name, userInfo: "\(user):\(password)") }

    /// The URL of repository `name` with `userInfo` (`user:password`) in it.
    public func url(_ name: String, userInfo: String) -> String { "http://\(userInfo)@127.0.0.1:\(port)/git/\(name)" }

    /// The URL of repository `name` without credentials.
    public func anonymousURL(_ name: String) -> String { "http://127.0.0.1:\(port)/git/\(name)" }

    static func config(
        port: Int, directory: String, socket: String, backend: String, repositories: String, home: String,
        asRoot: Bool
    ) -> String {
        """
        daemon off;
        master_process off;
        worker_processes 1;
        \(asRoot ? "user root;" : "")
        pid \(directory)/nginx.pid;
        error_log \(directory)/error.log info;
        events { worker_connections 256; }
        http {
          access_log \(directory)/access.log;
          client_body_temp_path \(directory)/tmp-body;
          fastcgi_temp_path \(directory)/tmp-fastcgi;
          proxy_temp_path \(directory)/tmp-proxy;
          uwsgi_temp_path \(directory)/tmp-uwsgi;
          scgi_temp_path \(directory)/tmp-scgi;
          client_max_body_size 0;
          fastcgi_read_timeout 300s;
          server {
            listen 127.0.0.1:\(port);
            location ~ ^/git(/.*)$ {
              auth_basic "git";
              auth_basic_user_file \(directory)/htpasswd;
              fastcgi_pass unix:\(socket);
              fastcgi_buffering off;
              fastcgi_request_buffering off;
              fastcgi_param SCRIPT_FILENAME \(backend);
              fastcgi_param GIT_PROJECT_ROOT \(repositories);
              fastcgi_param GIT_HTTP_EXPORT_ALL 1;
              fastcgi_param GIT_CONFIG_NOSYSTEM 1;
              fastcgi_param HOME \(home);
              fastcgi_param PATH /usr/local/bin:/usr/bin:/bin;
              fastcgi_param REMOTE_USER $remote_user;
              fastcgi_param REMOTE_ADDR $remote_addr;
              fastcgi_param PATH_INFO $1;
              fastcgi_param QUERY_STRING $query_string;
              fastcgi_param REQUEST_METHOD $request_method;
              fastcgi_param CONTENT_TYPE $content_type;
              fastcgi_param CONTENT_LENGTH $content_length;
              fastcgi_param HTTP_CONTENT_ENCODING $http_content_encoding;
              fastcgi_param GIT_PROTOCOL $http_git_protocol;
            }
          }
        }

        """
    }
}
