import Foundation

/// A stand-in for a forge's command-line client (`gh pr create`), for the `create` setting of the `review` object:
/// every call keeps its arguments and its `TENANTCTL_REVIEW_*` variables, and prints a review address
/// (`https://forge.invalid/<repository>/pull/<n>`, the repository named after the last part of its `--repo`
/// argument). ``fail(with:)`` makes the next calls fail (exit 3, the words on stderr); ``hang()`` makes them sleep
/// (for the time limit); ``heal()`` makes them work again; ``killCallerOnce()`` makes the next call kill its caller
/// (SIGKILL) once it has opened the review and printed its address, before the caller can record it.
public struct FakeCreateCommand: Sendable {
    /// The executable to put first in `create`.
    public let path: String
    /// The directory with one file per call.
    let calls: String

    /// The variables every call keeps, in this order.
    public static let variables = [
        "TENANTCTL_REVIEW_REPOSITORY", "TENANTCTL_REVIEW_TENANT", "TENANTCTL_REVIEW_REPO", "TENANTCTL_REVIEW_TARGET",
        "TENANTCTL_REVIEW_BRANCH", "TENANTCTL_REVIEW_TITLE",
    ]

    /// Writes the command into `sandbox` as `bin/<name>`.
    public init(in sandbox: GitSandbox, name: String = "fake-create") throws {
        calls = sandbox.path(name + "-calls")
        try FileManager.default.createDirectory(atPath: calls, withIntermediateDirectories: true)
        let keep = Self.variables.map { "\"$\($0)\"" }.joined(separator: " ")
        path = try sandbox.writeExecutable(
            "bin/\(name)",
            """
            #!/bin/sh
            calls='\(calls)'
            echo x >> "$calls/attempts"
            if [ -f "$calls/fail" ]; then cat "$calls/fail" >&2; exit 3; fi
            if [ -f "$calls/fail-times" ]; then
                left=$(cat "$calls/fail-times")
                if [ "$left" -gt 0 ]; then
                    echo $((left - 1)) > "$calls/fail-times"
                    cat "$calls/fail-words" >&2
                    exit 1
                fi
            fi
            if [ -f "$calls/hang" ]; then sleep 60; fi
            n=$(($(ls "$calls" | grep -c '\\.args$') + 1))
            printf '%s\\0' "$@" > "$calls/$n.args"
            printf '%s\\0' \(keep) > "$calls/$n.env"
            repo=""
            previous=""
            for word in "$@"; do
                if [ "$previous" = --repo ]; then repo=$(basename "$word" .git); fi
                previous="$word"
            done
            echo "Creating pull request for $TENANTCTL_REVIEW_BRANCH into $TENANTCTL_REVIEW_TARGET"
            echo
            echo "https://forge.invalid/$repo/pull/$n"
            if [ -f "$calls/kill" ]; then rm -f "$calls/kill"; kill -9 "$PPID"; fi

            """)
    }

    /// The next calls fail with `words` on stderr and exit status 3.
    public func fail(with words: String) throws {
        try words.write(toFile: calls + "/fail", atomically: true, encoding: .utf8)
    }

    /// The next `times` calls fail with `words` on stderr and exit status 1 (as `gh` does when the forge throttles);
    /// the calls after them work.
    public func fail(times: Int, with words: String) throws {
        try words.write(toFile: calls + "/fail-words", atomically: true, encoding: .utf8)
        try "\(times)\n".write(toFile: calls + "/fail-times", atomically: true, encoding: .utf8)
    }

    /// How often the command was started, whether it answered or failed.
    public func attempts() -> Int {
        let text = (try? String(contentsOfFile: calls + "/attempts", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").count
    }

    /// The next calls sleep a minute before they answer.
    public func hang() throws {
        try "".write(toFile: calls + "/hang", atomically: true, encoding: .utf8)
    }

    /// The next call opens its review, prints the address and then kills the process that ran it (SIGKILL), as a
    /// power loss right after the review was opened would; the calls after it work as before.
    public func killCallerOnce() throws {
        try "".write(toFile: calls + "/kill", atomically: true, encoding: .utf8)
    }

    /// The next calls work again.
    public func heal() {
        try? FileManager.default.removeItem(atPath: calls + "/fail")
        try? FileManager.default.removeItem(atPath: calls + "/hang")
        try? FileManager.default.removeItem(atPath: calls + "/fail-times")
    }

    /// One call that answered: its arguments and its variables (``variables`` → value).
    public struct Call: Sendable, Equatable {
        public var arguments: [String]
        public var environment: [String: String]
    }

    /// The calls that answered, in order.
    public func answered() throws -> [Call] {
        var result: [Call] = []
        var number = 1
        while let arguments = FileManager.default.contents(atPath: "\(calls)/\(number).args") {
            let values = Self.split(FileManager.default.contents(atPath: "\(calls)/\(number).env") ?? Data())
            result.append(
                Call(
                    arguments: Self.split(arguments),
                    environment: Dictionary(
                        zip(Self.variables, values).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })))
            number += 1
        }
        return result
    }

    /// NUL-terminated words.
    static func split(_ data: Data) -> [String] {
        data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
            String(decoding: $0, as: UTF8.self)
        }
    }
}
