import Foundation

/// One String per distinct object id. Parsing a tree makes a new String for every id in it; the trees of many
/// tenant branches pin mostly the same module commits, so the readers that keep what they parse (the pins of every
/// tenant branch, the trees roll rewrites) keep one String per distinct id instead: at 10,000 tenants × 50 modules
/// that is 500,000 Strings of 40 characters (about 40 MB) down to the distinct pins.
struct ObjectIDPool {
    private var ids: [String: String] = [:]

    /// `id`, or the equal String this pool returned before.
    mutating func intern(_ id: String) -> String {
        if let known = ids[id] { return known }
        ids[id] = id
        return id
    }
}
