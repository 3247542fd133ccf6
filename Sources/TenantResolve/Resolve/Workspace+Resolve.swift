import Foundation

extension Workspace {
    /// The repository at `relative` (a start point's or a merge's path): the superproject for "", else the checkout
    /// there.
    func repository(relative: String) -> GitRepository {
        relative.isEmpty ? superproject : checkout(at: relative)
    }
}
