import Foundation

/// What a server printed through git: the `remote: …` lines of git's standard error (a hook's reasons for a rejected
/// push, a host's notices). One rule for every caller (``AtomicPush/remoteMessages(_:)``,
/// ``GitError/remoteMessages``):
///
/// - a line redrawn with carriage returns (progress) counts as what was left on the terminal: its last part;
/// - the `remote:` prefix and the one space after it are dropped, and the terminal's "erase to end of line"
///   (`ESC [ K`) git appends to sideband lines on a terminal;
/// - surrounding spaces are trimmed, empty lines left out, and a password in a URL replaced by `***`.
public enum ServerMessages {
    /// The server's lines in `stderr`, in order.
    public static func parse(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line -> String? in
            let shown = line.split(separator: "\r", omittingEmptySubsequences: true).last ?? ""
            guard shown.hasPrefix("remote:") else { return nil }
            var message = shown.dropFirst("remote:".count)
            if message.first == " " { message = message.dropFirst() }
            while message.hasSuffix("\u{1B}[K") { message = message.dropLast(3) }
            let text = String(message).trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? nil : Redaction.redact(text)
        }
    }
}
