import Foundation

/// Classification, validation, resolution and redaction of module remote URLs.
public enum RemoteURL {
    /// What kind of remote a URL denotes, following git's own rules.
    public enum Kind: Sendable, Equatable, Hashable {
        /// Starts with `./` or `../`: relative to the superproject's remote.
        case relative
        /// A local path (`/srv/x.git`, `x/y`, `C:\x`).
        case localPath
        /// A `file://` URL.
        case file
        /// `scheme://…` with the lowercased scheme (also `transport::address`, which ``validate(_:)`` refuses).
        case network(String)
        /// scp-like `[user@]host:path`.
        case scpLike
    }

    /// The schemes ``validate(_:)`` accepts besides `file`.
    public static let networkSchemes: Set<String> = ["https", "http", "ssh", "git"]

    /// Classifies `url` the way git does: relative prefixes first, then `transport::`, `scheme://`,
    /// scp-like (a `:` before any `/`), else a local path.
    public static func classify(_ url: String) -> Kind {
        if url.hasPrefix("./") || url.hasPrefix("../") { return .relative }
        if let helper = transportHelper(url) { return .network(helper.lowercased()) }
        if let scheme = scheme(url) {
            let lower = scheme.lowercased()
            return lower == "file" ? .file : .network(lower)
        }
        let scalars = Array(url.unicodeScalars)
        if scalars.count >= 2, scalars[1] == ":", scalars[0].isASCII, scalars[0].properties.isAlphabetic,
            scalars.count == 2 || scalars[2] == "\\" || scalars[2] == "/"
        {
            return .localPath  // DOS drive
        }
        if let colon = url.firstIndex(of: ":") {
            if let slash = url.firstIndex(of: "/"), slash < colon { return .localPath }
            return .scpLike
        }
        return .localPath
    }

    /// Whether `url` is a local path or `file://` URL (refused unless local remotes are allowed).
    public static func isLocal(_ url: String) -> Bool {
        switch classify(url) {
        case .localPath, .file: return true
        default: return false
        }
    }

    /// Returns nil when `url` is acceptable, otherwise the reason it is not. The reason never repeats the
    /// URL (it may hold a credential).
    ///
    /// Refused: empty, leading `-`, control characters, leading or trailing whitespace, any
    /// `transport::address` form (`ext::`, `fd::`), unknown schemes, a host or user starting with `-`.
    public static func validate(_ url: String) -> String? {
        if url.isEmpty { return "is empty" }
        if url.hasPrefix("-") { return "starts with '-' (would be read as an option)" }
        if url.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "contains a control character"
        }
        if url.first?.isWhitespace == true || url.last?.isWhitespace == true {
            return "has leading or trailing whitespace"
        }
        if let helper = transportHelper(url) {
            return "uses the remote-helper transport '\(helper)::', which is not allowed"
        }
        switch classify(url) {
        case .relative, .localPath:
            return nil
        case .file:
            return nil
        case .network(let scheme):
            guard networkSchemes.contains(scheme) else {
                return "uses the unsupported scheme '\(scheme)' (use https, http, ssh, git or file)"
            }
            let (user, host) = authority(url)
            if host.isEmpty { return "has no host" }
            if startsWithDash(host) { return "has a host starting with '-'" }
            if let user, startsWithDash(user) { return "has a user name starting with '-'" }
            return nil
        case .scpLike:
            guard let colon = url.firstIndex(of: ":") else { return nil }
            let hostPart = String(url[..<colon])
            var user: String?
            var host = hostPart
            if let at = hostPart.lastIndex(of: "@") {
                user = String(hostPart[..<at])
                host = String(hostPart[hostPart.index(after: at)...])
            }
            if host.isEmpty { return "has no host" }
            if startsWithDash(host) { return "has a host starting with '-'" }
            if let user, startsWithDash(user) { return "has a user name starting with '-'" }
            return nil
        }
    }

    /// Resolves a relative submodule URL against the superproject's remote URL exactly as git does
    /// (`submodule--helper`'s `relative_url`): one trailing `/` of the base is removed, each leading
    /// `../` removes the last path component of the base (or the `:path` of an scp-like base), `./` is
    /// skipped. A relative or local base resolves as a path. A URL that is not relative is returned
    /// unchanged. Returns nil where git fails ("cannot strip one component off url").
    public static func resolve(relative url: String, against base: String) -> String? {
        if !isLocalNotSSH(url) || url.hasPrefix("/") { return url }
        var remote = base
        if remote.hasSuffix("/") { remote.removeLast() }
        let isRelative = isLocalNotSSH(remote) && !remote.hasPrefix("/")
        if isRelative && !remote.hasPrefix("./") && !remote.hasPrefix("../") {
            remote = "./" + remote
        }
        var rest = Substring(url)
        var colonSeparated = false
        while !rest.isEmpty {
            if rest.hasPrefix("../") {
                rest = rest.dropFirst(3)
                if let slash = remote.lastIndex(of: "/") {
                    remote = String(remote[..<slash])
                } else if let colon = remote.lastIndex(of: ":") {
                    remote = String(remote[..<colon])
                    colonSeparated = true
                } else if isRelative || remote == "." {
                    return nil
                } else {
                    remote = "."
                }
            } else if rest.hasPrefix("./") {
                rest = rest.dropFirst(2)
            } else {
                break
            }
        }
        var result = remote + (colonSeparated ? ":" : "/") + rest
        if rest.hasSuffix("/") { result.removeLast() }
        if result.hasPrefix("./") { result.removeFirst(2) }
        return result
    }

    /// `url` with credentials hidden: the password of `scheme://user:password@host/…` becomes `***`; a lone user
    /// name over http(s) (often a token) is hidden too; ssh user names are kept.
    public static func redacted(_ url: String) -> String {
        Redaction.redact(url)
    }

    /// `url` redacted when it carries a secret (a password, or a lone token as user name over http(s)); nil when it
    /// carries none.
    public static func credentialsRedacted(_ url: String) -> String? {
        let redacted = Redaction.redact(url)
        return redacted == url ? nil : redacted
    }

    // MARK: - Helpers

    /// `transport` of `transport::address`, as git's `transport_get` detects it.
    static func transportHelper(_ url: String) -> String? {
        guard let range = url.range(of: "::") else { return nil }
        let prefix = url[..<range.lowerBound]
        guard !prefix.isEmpty, prefix.unicodeScalars.allSatisfy(isSchemeCharacter) else { return nil }
        return String(prefix)
    }

    static func scheme(_ url: String) -> String? {
        guard let range = url.range(of: "://") else { return nil }
        let prefix = url[..<range.lowerBound]
        guard let first = prefix.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
            prefix.unicodeScalars.allSatisfy(isSchemeCharacter)
        else { return nil }
        return String(prefix)
    }

    static func isSchemeCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "+-.".unicodeScalars.contains(scalar))
    }

    /// git's `url_is_local_not_ssh`: no `:` or a `/` before the first `:`.
    static func isLocalNotSSH(_ url: String) -> Bool {
        guard let colon = url.firstIndex(of: ":") else { return true }
        if let slash = url.firstIndex(of: "/"), slash < colon { return true }
        return false
    }

    /// User and host of `scheme://[user[:password]@]host[:port]/…` (brackets of IPv6 kept).
    static func authority(_ url: String) -> (user: String?, host: String) {
        guard let schemeEnd = url.range(of: "://") else { return (nil, "") }
        let start = schemeEnd.upperBound
        let end = url[start...].firstIndex(of: "/") ?? url.endIndex
        var authority = Substring(url[start..<end])
        var user: String?
        if let at = authority.lastIndex(of: "@") {
            let info = authority[..<at]
            user = String(info.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? info)
            authority = authority[authority.index(after: at)...]
        }
        return (user, String(authority))
    }

    static func startsWithDash(_ text: String) -> Bool {
        text.hasPrefix("-") || text.lowercased().hasPrefix("%2d")
    }
}
