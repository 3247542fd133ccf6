import ArgumentParser
import TenantKit

/// `--wait`: every command that takes the workspace lock accepts it (the lock error tells the user to use it).
struct LockOptions: ParsableArguments, Sendable {
    @Flag(
        help: ArgumentHelp(
            "Wait for another tenantctl run on this superproject to finish, however long it takes (without it a "
                + "writing command fails at once; audit, verify, compose and status --fetch wait up to 2 minutes)."))
    var wait = false
}
