import Foundation

/// A smart-HTTP git server on 127.0.0.1 for tests: nginx with basic auth in front of `git http-backend` (through
/// fcgiwrap), serving every bare repository under a directory at `http://127.0.0.1:<port>/git/<name>.git`, for
/// reading and pushing. Everything (config, password file, logs, socket) lives in the sandbox; both programs run in
/// the foreground as children of the test and stop when the server is released (or ``stop()``). In a suite with the
/// `.sharedServers` trait the suite's one server serves the test's repositories instead, below a name of the test's
/// own (``TestServers``), and stops when the suite ends.
///
/// Needs nginx and fcgiwrap (Debian: `apt-get install nginx-light fcgiwrap`, as `.ci/run` does) and
/// `git http-backend`; ``unavailableReason`` says what is missing.
///
/// Each repository also has a Git LFS endpoint (`<url>/info/lfs`, behind the same basic auth) when python3 is on
/// the machine: a small CGI script of the batch API with the basic transfer, storing objects where git-lfs keeps
/// them in a bare repository (`lfs/objects/ab/cd/<oid>`), so `git lfs fsck` in the repository checks them.
public final class GitHTTPServer: Sendable {
    /// The user name basic auth accepts.
    public let user: String
    /// Its password.
    public let password: String
    /// The port nginx listens on.
    public let port: Int
    /// The programs serving: this server's own, or those its suite shares (``TestServers``).
    private let processes: Processes
    /// Whether ``stop()`` stops the programs (a server of its own) or only unlinks this test's repositories.
    private let owned: Bool
    /// The path below `/git/` of this test's repositories: empty for a server of its own, `<name>/` on a shared one.
    private let prefix: String
    /// The link to the test's repositories below the shared server's root.
    private let link: String?

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

    /// Serves the bare repositories under `repositories` (an absolute path). In a suite that shares its servers
    /// (``TestServers``) they are linked under a name of their own below the shared server's root; else a server of
    /// their own starts, its files in the sandbox.
    public init(
        serving repositories: String, in sandbox: GitSandbox, user: String = "alice", password: String = "s3cret"
    ) throws {
        self.user = user
        self.password = password
        if let shared = TestServers.current {
            processes = try shared.http(user: user, password: password)
            guard processes.user == user, processes.password == password else {
                throw SandboxError(
                    description: "the suite's shared HTTP server accepts \(processes.user), not \(user): "
                        + "give this test a suite of its own")
            }
            let name = "r-\(UUID().uuidString.prefix(8))"
            let link = processes.root + "/" + name
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: repositories)
            self.link = link
            prefix = name + "/"
            owned = false
        } else {
            processes = try Processes(
                serving: repositories, directory: sandbox.path("http-server"),
                home: sandbox.environment["HOME"] ?? sandbox.path("http-server"), environment: sandbox.environment,
                user: user, password: password)
            link = nil
            prefix = ""
            owned = true
        }
        port = processes.port
    }

    deinit { stop() }

    /// Stops nginx and fcgiwrap of a server of its own; on a shared server, stops serving this test's repositories.
    /// Idempotent.
    public func stop() {
        if owned { processes.stop() }
        if let link { try? FileManager.default.removeItem(atPath: link) }
    }

    /// nginx in front of fcgiwrap, serving the bare repositories below one root.
    final class Processes: Sendable {
        let user: String
        let password: String
        let port: Int
        /// The directory served (`GIT_PROJECT_ROOT`).
        let root: String
        private let nginx: TestDaemon
        private let fcgiwrap: TestDaemon
        private let socket: String

        /// Starts serving `repositories`; config, password file and logs in `directory`.
        init(
            serving repositories: String, directory: String, home: String, environment: [String: String],
            user: String, password: String
        ) throws {
            guard let nginxPath = TestDaemon.find(["nginx"]), let fcgiwrapPath = TestDaemon.find(["fcgiwrap"]),
                let backend = GitHTTPServer.httpBackend
            else { throw SandboxError(description: GitHTTPServer.unavailableReason ?? "no http server") }
            self.user = user
            self.password = password
            root = repositories
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            // A unix socket path must stay under ~100 bytes: keep it short, outside the (long) sandbox path.
            socket = NSTemporaryDirectory() + "/tfcgi-\(UUID().uuidString.prefix(8)).sock"
            // nginx's own scheme for a clear-text password in a test's password file.
            try "\(user):{PLAIN}\(password)\n".write(
                toFile: "\(directory)/htpasswd", atomically: true, encoding: .utf8)
            let lfsScript = try GitHTTPServer.writeLFSScript(in: directory)
            fcgiwrap = try TestDaemon(
                fcgiwrapPath, ["-s", "unix:\(socket)"], environment: environment, log: "\(directory)/fcgiwrap.log")
            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: socket) && Date() < deadline && fcgiwrap.isRunning {
                usleep(20_000)
            }
            guard FileManager.default.fileExists(atPath: socket) else {
                fcgiwrap.stop()
                throw SandboxError(description: "fcgiwrap did not create \(socket): \(fcgiwrap.output)")
            }
            let started: (port: Int, daemon: TestDaemon)
            let socket = socket
            do {
                started = try TestDaemon.startListening("nginx") { port in
                    let config = GitHTTPServer.config(
                        port: port, directory: directory, socket: socket, backend: backend,
                        repositories: repositories, home: home, asRoot: getuid() == 0, lfsScript: lfsScript)
                    try config.write(toFile: "\(directory)/nginx.conf", atomically: true, encoding: .utf8)
                    return try TestDaemon(
                        nginxPath, ["-c", "\(directory)/nginx.conf", "-p", directory, "-e", "\(directory)/error.log"],
                        environment: environment, log: "\(directory)/nginx.log")
                }
            } catch {
                fcgiwrap.stop()
                try? FileManager.default.removeItem(atPath: socket)
                throw error
            }
            port = started.port
            nginx = started.daemon
        }

        deinit { stop() }

        /// Stops nginx and fcgiwrap. Idempotent.
        func stop() {
            nginx.stop()
            fcgiwrap.stop()
            try? FileManager.default.removeItem(atPath: socket)
        }
    }

    /// The URL of repository `name` (`Article.git`) with the right credentials in it.
    public func url(_ name: String) -> String { url(name, userInfo: "\(user):\(password)") }

    /// The URL of repository `name` with `userInfo` (`user:password`) in it.
    public func url(_ name: String, userInfo: String) -> String {
        "http://\(userInfo)@127.0.0.1:\(port)/git/\(prefix)\(name)"
    }

    /// The URL of repository `name` without credentials.
    public func anonymousURL(_ name: String) -> String { "http://127.0.0.1:\(port)/git/\(prefix)\(name)" }

    /// Whether repositories get the Git LFS endpoint (python3 found).
    public static var servesLFS: Bool { TestDaemon.find(["python3"]) != nil }

    /// Writes the LFS endpoint's CGI script; nil without python3.
    static func writeLFSScript(in directory: String) throws -> String? {
        guard let python = TestDaemon.find(["python3"]) else { return nil }
        let path = "\(directory)/lfs-server"
        try ("#!\(python)\n" + lfsServerSource).write(toFile: path, atomically: true, encoding: .utf8)
        guard chmod(path, 0o755) == 0 else { throw SandboxError(description: "cannot make \(path) executable") }
        return path
    }

    /// The Git LFS batch API with the basic transfer (upload, download; locking is not offered, which git-lfs
    /// accepts). Objects are checked against their oid and size and stored through a temporary file.
    static let lfsServerSource = #"""
        import hashlib, json, os, re, sys

        root = os.environ["LFS_ROOT"]
        repo = os.environ["LFS_REPO"].strip("/")
        path = os.environ.get("LFS_PATH", "")
        method = os.environ.get("REQUEST_METHOD", "")
        store = os.path.join(root, repo, "lfs", "objects")
        out = sys.stdout.buffer

        def reply(status, body=b"", ctype="application/vnd.git-lfs+json"):
            out.write(("Status: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n" % (status, ctype, len(body))).encode())
            out.write(body)
            out.flush()
            sys.exit(0)

        def located(oid):
            if not re.fullmatch(r"[0-9a-f]{64}", oid):
                reply("422 Unprocessable Entity", b'{"message":"bad oid"}')
            return os.path.join(store, oid[0:2], oid[2:4], oid)

        length = int(os.environ.get("CONTENT_LENGTH") or 0)
        body = sys.stdin.buffer.read(length) if length else b""
        if not os.path.isdir(os.path.join(root, repo)):
            reply("404 Not Found", b'{"message":"no such repository"}')
        base = "http://%s/git/%s/info/lfs/objects/" % (os.environ.get("LFS_HOST", ""), repo)
        header = {"Authorization": os.environ["LFS_AUTHORIZATION"]} if os.environ.get("LFS_AUTHORIZATION") else {}
        if method == "POST" and path == "/objects/batch":
            request = json.loads(body or b"{}")
            objects = []
            for item in request.get("objects", []):
                oid, size = item["oid"], item["size"]
                entry = {"oid": oid, "size": size, "authenticated": True}
                present = os.path.exists(located(oid))
                if request.get("operation") == "upload":
                    if not present:
                        entry["actions"] = {"upload": {"href": base + oid, "header": header}}
                elif present:
                    entry["actions"] = {"download": {"href": base + oid, "header": header}}
                else:
                    entry["error"] = {"code": 404, "message": "object not found"}
                objects.append(entry)
            reply("200 OK", json.dumps({"transfer": "basic", "objects": objects}).encode())
        if method == "PUT" and path.startswith("/objects/"):
            oid = path[len("/objects/"):]
            target = located(oid)
            if hashlib.sha256(body).hexdigest() != oid:
                reply("422 Unprocessable Entity", b'{"message":"content does not match its oid"}')
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target + ".tmp", "wb") as handle:
                handle.write(body)
            os.replace(target + ".tmp", target)
            reply("200 OK")
        if method == "GET" and path.startswith("/objects/"):
            target = located(path[len("/objects/"):])
            if not os.path.exists(target):
                reply("404 Not Found", b'{"message":"object not found"}')
            with open(target, "rb") as handle:
                reply("200 OK", handle.read(), "application/octet-stream")
        reply("404 Not Found", b'{"message":"not offered by this server"}')
        """#

    static func config(
        port: Int, directory: String, socket: String, backend: String, repositories: String, home: String,
        asRoot: Bool, lfsScript: String? = nil
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
        \(lfsScript.map { Self.lfsLocation(script: $0, directory: directory, socket: socket, repositories: repositories) } ?? "")
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

    /// The nginx location of the LFS endpoint: before the git location, so that it matches first.
    static func lfsLocation(script: String, directory: String, socket: String, repositories: String) -> String {
        """
            location ~ ^/git/(.+\\.git)/info/lfs(/.*)$ {
              auth_basic "git";
              auth_basic_user_file \(directory)/htpasswd;
              fastcgi_pass unix:\(socket);
              fastcgi_request_buffering on;
              fastcgi_param SCRIPT_FILENAME \(script);
              fastcgi_param LFS_ROOT \(repositories);
              fastcgi_param LFS_REPO $1;
              fastcgi_param LFS_PATH $2;
              fastcgi_param LFS_HOST $http_host;
              fastcgi_param LFS_AUTHORIZATION $http_authorization;
              fastcgi_param PATH /usr/local/bin:/usr/bin:/bin;
              fastcgi_param REQUEST_METHOD $request_method;
              fastcgi_param CONTENT_TYPE $content_type;
              fastcgi_param CONTENT_LENGTH $content_length;
            }
        """
    }
}
