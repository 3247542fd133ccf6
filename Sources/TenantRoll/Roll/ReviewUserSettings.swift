import Foundation

/// Commands come from the user. How reviews are proposed, and the `create` command that opens them, are read from
/// what the user has: the checked-out `modules.json` and git config `tenantctl.review.create` — never from fetched
/// content, as git never runs what a fetch brought. A `review` object on the fetched general branch that differs from
/// the checked-out one is refused, naming both, until the user has checked it out.
extension ReviewOptions {
    /// The git config key of the user's `create` command: several values (one word each), or one value holding a
    /// JSON array of strings.
    public static let createConfigKey = "tenantctl.review.create"

    /// These options with the user's review settings (see the type's description). `fetched`: the manifest as
    /// committed on the fetched general branch, named `fetchedName` (`origin/general_dev`).
    public func readingUser(_ workspace: Workspace, fetched: ModuleManifest, fetchedName: String) throws
        -> ReviewOptions
    {
        let checkedOut = try ProjectReader.checkedOutReview(workspace)
        let theirs = CheckedOutReview(manifest: fetched)
        let mine = CheckedOutReview(
            review: checkedOut?.review,
            modules: (checkedOut?.modules ?? [:]).filter { name, _ in fetched.modules.contains { $0.name == name } })
        guard mine == theirs else {
            throw RollError(
                "the review settings of modules.json on \(fetchedName) (\(theirs.described)) differ from the "
                    + "checked-out modules.json (\(mine.described)): tenantctl takes how reviews are proposed and the "
                    + "command that opens them only from what you have checked out, never from fetched content; "
                    + "look at the change (`git -C \(ShellWord.quote(workspace.root)) log -p "
                    + "\(ShellWord.quote(fetchedName)) -- modules.json`), check it out (`git pull` on "
                    + "\(fetched.generalBranch)), then run the command again")
        }
        var options = self
        options.settings = mine.review ?? ReviewSettings()
        options.modules = mine.modules
        options.userCreate = try Self.configuredCreate(workspace)
        return options
    }

    /// The `create` command of git config `tenantctl.review.create`; nil when it is not set.
    package static func configuredCreate(_ workspace: Workspace) throws -> [String]? {
        let values = try workspace.superproject.configValues(
            createConfigKey, context: "read git config \(createConfigKey)")
        guard !values.isEmpty else { return nil }
        var words = values
        if values.count == 1, let only = values.first,
            only.trimmingCharacters(in: .whitespaces).hasPrefix("[")
        {
            guard let array = try? JSONSerialization.jsonObject(with: Data(only.utf8)) as? [String] else {
                throw RollError(
                    "git config \(createConfigKey) is no JSON array of strings (\(only)): give the command as one "
                        + "JSON array (`git config \(createConfigKey) '[\"gh\", \"pr\", \"create\"]'`) or one value "
                        + "per word (`git config --add \(createConfigKey) gh`)")
            }
            words = array
        }
        if let problem = ReviewSettings.problem(create: words) {
            throw RollError("git config \(createConfigKey): \(problem)")
        }
        return words
    }
}
