import Foundation

extension RunJournal.Review {
    /// The commands that go on from a proposal closed on the forge without landing, for the review run `runId`: propose
    /// it again (`tenantctl roll --review --tenant <t>`; plain `roll --review` for the general branch's re-pin,
    /// which no tenant names), or stop following it (`tenantctl roll --abandon <run> --tenant <t>`). Empty for a
    /// proposal in any other state. The run waits on this decision.
    public func waysOn(runId: String) -> [String] {
        guard state == "closed" else { return [] }
        let tenantOption = isGeneralRepin ? "" : " --tenant \(tenant)"
        return ["tenantctl roll --review" + tenantOption, "tenantctl roll --abandon \(runId)" + tenantOption]
    }

    /// One sentence with both ways on of a closed proposal (``waysOn(runId:)``); nil for one that is not closed.
    public func closedSentence(runId: String) -> String? {
        let ways = waysOn(runId: runId)
        guard ways.count == 2 else { return nil }
        let place = repository == "superproject" ? "\(tenant) (superproject)" : "\(tenant)/\(repository)"
        return "\(place) was closed without landing: propose it again: \(ways[0]), or stop following it: \(ways[1])"
    }
}
