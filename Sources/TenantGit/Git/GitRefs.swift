import Foundation

/// Reading refs: the one `for-each-ref` parser and argument form of the tool.
public enum GitRefs {
    /// Every ref under `prefixes` (full ref name → object id), from one `for-each-ref`.
    public static func list(_ prefixes: [String], in repository: String, git: Git, what: String) throws(GitError)
        -> [String: String]
    {
        let arguments = ["for-each-ref", "--format=%(refname)%00%(objectname)", "--end-of-options"] + prefixes
        let output = try git.run(arguments, in: repository, context: "read the refs of \(what)")
        guard let refs = GitParse.refs(bytes: output.stdout) else {
            throw GitError(
                context: "read the refs of \(what)", kind: .unparseableOutput(detail: "for-each-ref output"),
                command: git.command(arguments, in: repository), directory: repository, output: output)
        }
        return refs
    }

    /// The refs under one `prefix` by their short name (`refs/heads/t2` → `t2`); a symbolic `HEAD` is left out.
    public static func branches(under prefix: String, in repository: String, git: Git, what: String)
        throws(GitError) -> [String: String]
    {
        var branches: [String: String] = [:]
        let head = prefix + "HEAD"
        for (ref, id) in try list([prefix], in: repository, git: git, what: what)
        where ref.utf8.starts(with: prefix.utf8) && ref != head {
            branches[String(decoding: ref.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)] = id
        }
        return branches
    }

    /// The short names of the refs under `prefix` that contain `commit`, from one `for-each-ref --contains`.
    public static func containing(_ commit: String, under prefix: String, in repository: String, git: Git, what: String)
        throws(GitError) -> Set<String>
    {
        let output = try git.run(
            ["for-each-ref", "--format=%(refname)", "--contains", commit, "--end-of-options", prefix],
            in: repository, context: "find the branches of \(what) that contain \(ObjectID.short(commit))")
        var names: Set<String> = []
        for ref in output.lines where ref.hasPrefix(prefix) && ref != prefix + "HEAD" {
            names.insert(String(ref.dropFirst(prefix.count)))
        }
        return names
    }
}
