import Foundation
import TenantKit
import Testing

/// The host's address that opens a review of a proposal branch pushed with no review opened.
@Suite struct ReviewCompareTests {
    /// The host's address that opens a review of a proposal branch, for the URL forms of the known hosts.
    @Test(arguments: [
        (
            "https://github.com/acme/app.git",
            "https://github.com/acme/app/compare/t2...tenantctl/roll/t2?expand=1"
        ),
        ("git@github.com:acme/app.git", "https://github.com/acme/app/compare/t2...tenantctl/roll/t2?expand=1"),
        ("ssh://git@github.com/acme/app", "https://github.com/acme/app/compare/t2...tenantctl/roll/t2?expand=1"),
        (
            "https://gitlab.com/group/sub/app.git",
            "https://gitlab.com/group/sub/app/-/merge_requests/new?merge_request%5Bsource_branch%5D=tenantctl/roll/t2"
                + "&merge_request%5Btarget_branch%5D=t2"
        ),
        (
            "git@gitlab.example.com:group/app.git",
            "https://gitlab.example.com/group/app/-/merge_requests/new?merge_request%5Bsource_branch%5D="
                + "tenantctl/roll/t2&merge_request%5Btarget_branch%5D=t2"
        ),
        (
            "https://user@bitbucket.org/acme/app.git",
            "https://bitbucket.org/acme/app/pull-requests/new?source=tenantctl/roll/t2&dest=t2"
        ),
        ("git@codeberg.org:acme/app.git", "https://codeberg.org/acme/app/compare/t2...tenantctl/roll/t2"),
        ("https://gitea.example.com/acme/app.git", "https://gitea.example.com/acme/app/compare/t2...tenantctl/roll/t2"),
    ])
    func theCompareAddressOfAKnownHost(remote: String, address: String) {
        #expect(ReviewCompare.address(remote: remote, target: "t2", branch: "tenantctl/roll/t2") == address)
    }

    /// No address for a host tenantctl does not know, a local path or a file URL (the control of the known ones).
    @Test func noCompareAddressForAnUnknownHost() {
        for remote in ["https://git.example.com/acme/app.git", "/srv/git/app.git", "file:///srv/git/app.git", "../app"]
        {
            #expect(
                ReviewCompare.address(remote: remote, target: "t2", branch: "tenantctl/roll/t2") == nil, "\(remote)")
        }
        #expect(ReviewCompare.address(remote: "https://github.com/a/b", target: "t2", branch: "x") != nil)
    }
}
