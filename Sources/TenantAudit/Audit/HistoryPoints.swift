import Foundation

/// How far apart the points of `audit --history` are (`--every`).
public enum HistoryStep: Sendable, Equatable {
    case day, week, month
    /// Every n-th first-parent commit of the superproject's general branch.
    case commits(Int)

    /// `day`, `week`, `month` or a positive number; nil otherwise.
    public init?(argument: String) {
        switch argument {
        case "day": self = .day
        case "week": self = .week
        case "month": self = .month
        default:
            guard let count = Int(argument), count > 0 else { return nil }
            self = .commits(count)
        }
    }
}

/// One end of the history (`--since`, `--until`): a date, or a revision of the superproject whose committer date is
/// taken.
public enum HistoryBound: Sendable, Equatable {
    case time(Int)
    case revision(String)

    /// `2026-01-31`, `2026-01-31T12:00:00Z` (ISO 8601, UTC unless an offset is given) or else a revision.
    public init(argument: String) {
        if let time = Self.date(argument) {
            self = .time(time)
        } else {
            self = .revision(argument)
        }
    }

    /// The seconds since 1970 of an ISO 8601 date or date and time; nil when `text` is neither.
    public static func date(_ text: String) -> Int? {
        let full = ISO8601DateFormatter()
        if let date = full.date(from: text) { return Int(date.timeIntervalSince1970) }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        day.timeZone = TimeZone(identifier: "UTC")
        guard text.count == 10, let date = day.date(from: text) else { return nil }
        return Int(date.timeIntervalSince1970)
    }
}

/// The points of a history.
public enum HistoryPoints {
    /// The points from `since` to `until` (both included: `until` is the last point even where the step does not
    /// fall on it), one per `step`; for ``HistoryStep/commits(_:)`` the committer dates of every n-th commit of
    /// `generalLine` (the general branch's first-parent line, newest first) between them, oldest first. Empty when
    /// `since` is after `until`.
    public static func points(since: Int, until: Int, step: HistoryStep, generalLine: [DatedCommit]) -> [Int] {
        guard since <= until else { return [] }
        var points: [Int] = []
        switch step {
        case .day, .week:
            let seconds = step == .day ? 86_400 : 7 * 86_400
            var point = since
            while point <= until {
                points.append(point)
                point += seconds
            }
        case .month:
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
            let start = Date(timeIntervalSince1970: TimeInterval(since))
            var months = 0
            while let date = calendar.date(byAdding: .month, value: months, to: start),
                Int(date.timeIntervalSince1970) <= until
            {
                points.append(Int(date.timeIntervalSince1970))
                months += 1
            }
        case .commits(let count):
            let inRange = generalLine.reversed().filter { $0.date >= since && $0.date <= until }
            for (index, commit) in inRange.enumerated() where index % count == 0 { points.append(commit.date) }
        }
        var distinct = Array(Set(points)).sorted()
        if distinct.last != until { distinct.append(until) }
        return distinct
    }

    /// Twelve calendar months before `time` (the default `--since`).
    public static func yearBefore(_ time: Int) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let date = calendar.date(byAdding: .month, value: -12, to: Date(timeIntervalSince1970: TimeInterval(time)))
        return Int(date?.timeIntervalSince1970 ?? TimeInterval(time - 365 * 86_400))
    }
}
