import Foundation

extension Auditor {
    /// `report` with the reviews of review rolls: the ones the ``FindingJudge`` shows (``FindingJudge/shownReviews(_:observation:)``)
    /// of the report's tenants and of the general branch, listed in ``AuditReport/reviews``, and each one's findings
    /// (``FindingJudge/reviewFindings(_:observation:)``) on its cell: a module review's on the tenant's module cell,
    /// a superproject review's on the tenant's superproject entry, the general branch's re-pin's on the report. A cell
    /// that contains a squash or rebase landing counts as behind only by what it lacks by content too
    /// (``FindingJudge/behindByContent(_:tip:observation:)``), and says how it is contained.
    /// Pure: no git. `now`: the report's time (for each review's age).
    public static func adding(
        _ reviews: [ObservedReview], to report: AuditReport, observation: ProjectObservation, now: Date
    )
        -> AuditReport
    {
        var report = report
        let tenants = Dictionary(
            report.tenants.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for review in FindingJudge.shownReviews(reviews, observation: observation) {
            let general = review.tenant == report.generalBranch
            guard general || tenants[review.tenant] != nil else { continue }
            report.reviews.append(AuditReview(review, now: now))
            let findings = FindingJudge.reviewFindings(review, observation: observation).map(AuditFinding.init)
            guard let index = tenants[review.tenant] else {
                report.findings += findings
                continue
            }
            if review.repository == Finding.superproject {
                report.tenants[index].superproject.findings += findings
                if let tip = observation.superproject.tenantTips[report.tenants[index].branch],
                    let behind = FindingJudge.behindByContent(review, tip: tip, observation: observation)
                {
                    report.tenants[index].superproject.behind = behind
                    report.tenants[index].superproject.contained = review.method
                }
            } else if let cell = report.tenants[index].modules.firstIndex(where: { $0.module == review.repository }) {
                report.tenants[index].modules[cell].findings += findings
                if let pin = report.tenants[index].modules[cell].pin,
                    let behind = FindingJudge.behindByContent(
                        review, tip: observation.modules[review.repository]?.commit(pin) ?? pin,
                        observation: observation)
                {
                    report.tenants[index].modules[cell].behind = behind
                    report.tenants[index].modules[cell].contained = review.method
                }
            } else {
                // A tenant without cells (its superproject branch is missing): on its superproject entry.
                report.tenants[index].superproject.findings += findings
            }
        }
        return report
    }
}
