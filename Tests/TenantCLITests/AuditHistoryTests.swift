import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantCLI

/// `audit --history`: the cells at points in time agree with plain git at that point (`rev-list --before`,
/// `rev-list --count`, `diff --shortstat`), on the example given history at known dates: its own commits on
/// 2013-01-01, the general changes on 2013-01-31, t3 rolled on 2013-03-01, t4 added on 2013-04-01.
@Suite struct AuditHistoryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The environment that makes git date a commit `date` (ISO 8601, UTC).
    static func dated(_ date: String) -> [String: String] {
        let seconds = HistoryBound.date(date) ?? 0
        return ["GIT_COMMITTER_DATE": "\(seconds) +0000", "GIT_AUTHOR_DATE": "\(seconds) +0000"]
    }

    /// The example with its history at known dates (above).
    static func workspace() throws -> (GitSandbox, ExampleResult) {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        try ExampleBuilder(git: try sandbox.gitRunner()).landUpdates(remotes: example.remotes)
        let roll = try sandbox.tenantctlProcess(
            ["roll", "--tenant", "t3"], in: example.workspace, environment: dated("2013-03-01T12:00:00Z"))
        #expect(roll.status == 0, "\(roll.stderr)")
        let add = try sandbox.tenantctlProcess(
            ["tenant", "add", "t4", "--name", "Tenant Four"], in: example.workspace,
            environment: dated("2013-04-01T12:00:00Z"))
        #expect(add.status == 0, "\(add.stderr)")
        return (sandbox, example)
    }

    /// pin, behind, ahead, added, removed of `tenant`'s `module` at `date`, as plain git gives them (empty where the
    /// tenant was absent or a branch did not exist yet).
    static func oracle(
        _ tenant: String, _ module: String, at date: String, example: ExampleResult, sandbox: GitSandbox
    ) throws -> [String] {
        let superproject = "\(example.remotes)/Superproject.git"
        let absent = ["", "", "", "", ""]
        let commit = try sandbox.git(
            ["rev-list", "-1", "--first-parent", "--before=\(date)", tenant], in: superproject)
        // The tenant's first own first-parent commit: the oldest one not on the general branch; a branch without one
        // (a tenant just added) counts from its tip.
        let own = try sandbox.git(["rev-list", "--first-parent", tenant, "--not", "general_dev"], in: superproject)
        let tip = try sandbox.git(["rev-parse", tenant], in: superproject)
        guard !commit.isEmpty else { return absent }
        let firstOwn = own.split(separator: "\n").last.map(String.init) ?? tip
        let firstDate = try #require(Int(try sandbox.git(["log", "-1", "--format=%ct", firstOwn], in: superproject)))
        guard firstDate <= (HistoryBound.date(date) ?? 0) else { return absent }
        let entry = try sandbox.git(["ls-tree", commit, "--", "Modules/\(module)"], in: superproject)
        let pin = String(try #require(entry.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst(2).first))
        let repository = "\(example.remotes)/\(module).git"
        let general = try sandbox.git(
            ["rev-list", "-1", "--first-parent", "--before=\(date)", "general_dev"], in: repository)
        guard !general.isEmpty else { return [pin, "", "", "", ""] }
        let behind = try sandbox.git(["rev-list", "--count", "\(pin)..\(general)"], in: repository)
        let ahead = try sandbox.git(["rev-list", "--count", "--no-merges", "\(general)..\(pin)"], in: repository)
        let base = try sandbox.git(["merge-base", pin, general], in: repository)
        let stat = try sandbox.git(["diff", "--shortstat", base, pin], in: repository)
        return [pin, behind, ahead, String(count(stat, "insertion")), String(count(stat, "deletion"))]
    }

    /// The number before `word` in a `--shortstat` line (0 when it is not there).
    static func count(_ stat: String, _ word: String) -> Int {
        let parts = stat.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let part = parts.first(where: { $0.contains(word) }) else { return 0 }
        return Int(part.split(separator: " ").first ?? "") ?? 0
    }

    @Test func sampledCellsAgreeWithPlainGitAtEachPoint() throws {
        let (sandbox, example) = try Self.workspace()
        let run = try sandbox.tenantctlProcess(
            ["audit", "--history", "--since", "2012-12-15", "--until", "2013-05-15", "--format", "csv"],
            in: example.workspace)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "date,tenant,module,pin,behind,ahead,added,removed")
        var rows: [String: [String]] = [:]
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(fields.count == 8, "\(line)")
            rows[fields[0...2].joined(separator: ",")] = Array(fields[3...])
        }
        // Six monthly points × four tenants × four modules.
        #expect(rows.count == 6 * 4 * 4, "\(run.stdout)")
        let samples: [(String, [String])] = [
            ("2012-12-15T00:00:00Z", ["t1", "t3"]), ("2013-02-15T00:00:00Z", ["t1", "t2", "t3"]),
            ("2013-03-15T00:00:00Z", ["t3", "t4"]), ("2013-05-15T00:00:00Z", ["t1", "t2", "t3", "t4"]),
        ]
        var seen: [[String]] = []
        for (date, tenants) in samples {
            for tenant in tenants {
                for module in ["Infrastructure", "Customer", "Article", "Order"] {
                    let expected = try Self.oracle(tenant, module, at: date, example: example, sandbox: sandbox)
                    #expect(rows["\(date),\(tenant),\(module)"] == expected, "\(date) \(tenant)/\(module)")
                    seen.append(expected)
                }
            }
        }
        // The samples are not trivial: absent cells, cells behind, customisations with lines, and t3 caught up.
        #expect(seen.contains { $0[0].isEmpty } && seen.contains { (Int($0[1]) ?? 0) > 0 })
        #expect(seen.contains { (Int($0[3]) ?? 0) > 0 })
        #expect(rows["2013-03-15T00:00:00Z,t4,Order"] == ["", "", "", "", ""])
        #expect(rows["2013-05-15T00:00:00Z,t4,Order"]?.first?.isEmpty == false)
        #expect(rows["2013-02-15T00:00:00Z,t3,Order"]?[1] != "0" && rows["2013-03-15T00:00:00Z,t3,Order"]?[1] == "0")
    }

    @Test func theJSONMatchesItsSchemaAndBehindDaysIsTheOldestLackedCommitsAge() throws {
        let (sandbox, example) = try Self.workspace()
        let run = try sandbox.tenantctlProcess(
            ["audit", "--history", "--since", "2012-12-15", "--until", "2013-05-15", "--json", "--tenant", "t1"],
            in: example.workspace)
        #expect(run.status == 0, "\(run.stderr)")
        let schema = try JSONSchemaCheck(
            contentsOf: Self.root.appendingPathComponent("docs/schemas/audit-history.schema.json").path)
        #expect(try schema.violations(of: run.stdout) == [])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let tenants = try #require(json["tenants"] as? [[String: Any]])
        #expect(tenants.map { $0["id"] as? String } == ["t1"])
        let series = try #require(tenants.first?["series"] as? [[String: Any]])
        #expect(series.count == 6)
        #expect(series.first?["present"] as? Bool == false && series.first?["behindDays"] is NSNull)
        // At 2013-05-15 t1 lacks the general changes of 2013-01-31: the oldest, by plain git, gives the days.
        let last = try #require(series.last)
        var oldest = Int.max
        for module in ["Infrastructure", "Customer", "Article", "Order"] {
            let cell = try Self.oracle("t1", module, at: "2013-05-15T00:00:00Z", example: example, sandbox: sandbox)
            let dates = try sandbox.git(
                ["log", "--format=%ct", "\(cell[0])..general_dev"], in: "\(example.remotes)/\(module).git")
            oldest = min(oldest, dates.split(separator: "\n").compactMap { Int($0) }.min() ?? Int.max)
        }
        let point = try #require(HistoryBound.date("2013-05-15"))
        #expect(oldest < point)
        #expect(last["behindDays"] as? Int == (point - oldest) / 86_400)
        #expect((last["behind"] as? Int ?? 0) > 0)
    }

    @Test func theTableFitsEightyColumnsWithTrendLinesAndAnASCIIFallback() throws {
        let (sandbox, example) = try Self.workspace()
        let arguments = ["audit", "--history", "--since", "2012-12-15", "--until", "2013-05-15", "--every", "week"]
        let unicode = try sandbox.tenantctlProcess(
            arguments, in: example.workspace, environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        #expect(unicode.status == 0, "\(unicode.stderr)")
        let ascii = try sandbox.tenantctlProcess(
            arguments, in: example.workspace, environment: ["LANG": "C", "LC_ALL": "C"])
        #expect(ascii.status == 0, "\(ascii.stderr)")
        for line in (unicode.stdout + ascii.stdout).split(separator: "\n") {
            #expect(line.count <= 80, "\(line)")
        }
        #expect(unicode.stdout.contains("▁") && !ascii.stdout.contains("▁"))
        let allASCII = ascii.stdout.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(allASCII, "\(ascii.stdout)")
        // Sorted by growth: t1 and t2 fell behind, t3 caught up (its row after theirs).
        let order = ascii.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { ["t1", "t2", "t3", "t4"].contains($0) }
        #expect(order.count == 4)
        #expect((order.firstIndex(of: "t1") ?? 9) < (order.firstIndex(of: "t3") ?? 0), "\(ascii.stdout)")
    }

    @Test func pointsFollowTheStepAndEndAtUntil() {
        let since = HistoryBound.date("2013-01-31")!
        let until = HistoryBound.date("2013-04-15")!
        let months = HistoryPoints.points(since: since, until: until, step: .month, generalLine: [])
        #expect(
            months.map(AuditHistory.timestamp) == [
                "2013-01-31T00:00:00Z", "2013-02-28T00:00:00Z", "2013-03-31T00:00:00Z", "2013-04-15T00:00:00Z",
            ])
        let line = (0..<5).reversed().map { DatedCommit(id: "c\($0)", date: since + $0 * 86_400) }
        #expect(
            HistoryPoints.points(since: since, until: until, step: .commits(2), generalLine: line)
                == [since, since + 2 * 86_400, since + 4 * 86_400, until])
        #expect(HistoryPoints.points(since: until, until: since, step: .day, generalLine: []).isEmpty)
        #expect(HistoryTableRenderer.sparkline([0, nil, 7], unicode: true) == "▁ █")
        #expect(HistoryTableRenderer.sparkline([0, nil, 7], unicode: false) == "_ #")
        #expect(HistoryTableRenderer.unicode(environment: ["LANG": "en_US.UTF-8"]))
        #expect(!HistoryTableRenderer.unicode(environment: ["LANG": "en_US.UTF-8", "LC_ALL": "C"]))
    }

    @Test func maxBehindDaysFailsOnlyStaleTenantsNamingTheRollThatFixesThem() throws {
        let (sandbox, example) = try Self.workspace()
        // On 2013-05-15 t1 and t2 have lacked the general changes of 2013-01-31 for 104 days; t3 rolled on
        // 2013-03-01 and t4 was made on 2013-04-01 from the general branch as it was then.
        let now = ["SOURCE_DATE_EPOCH": String(try #require(HistoryBound.date("2013-05-15")))]
        func gate(_ extra: [String]) throws -> (status: Int32, stale: [String: String]) {
            let run = try sandbox.tenantctlProcess(
                ["audit", "--check", "--json"] + extra, in: example.workspace, environment: now)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            var stale: [String: String] = [:]
            for tenant in try #require(json["tenants"] as? [[String: Any]]) {
                let superproject = try #require(tenant["superproject"] as? [String: Any])
                for finding in try #require(superproject["findings"] as? [[String: Any]])
                where finding["code"] as? String == "stale-tenant" {
                    stale[try #require(tenant["id"] as? String)] = finding["message"] as? String
                }
            }
            return (run.status, stale)
        }
        // Without a bound, being behind at all fails the gate.
        let plain = try gate([])
        #expect(plain.status == 2 && plain.stale.isEmpty)
        let strict = try gate(["--max-behind-days", "30"])
        #expect(strict.status == 2)
        #expect(Set(strict.stale.keys) == ["t1", "t2"], "\(strict.stale)")
        #expect(strict.stale["t1"]?.contains("104 days") == true)
        #expect(strict.stale["t1"]?.hasSuffix("tenantctl roll --tenant t1") == true, "\(strict.stale)")
        // Positive control: a bound they have not passed lets them be behind.
        let lenient = try gate(["--max-behind-days", "104"])
        #expect(lenient.status == 0 && lenient.stale.isEmpty, "\(lenient.stale)")
        // The roll the finding names fixes it (made on 2013-05-10, before the gate's day).
        let roll = try sandbox.tenantctlProcess(
            ["roll", "--tenant", "t1"], in: example.workspace, environment: Self.dated("2013-05-10T00:00:00Z"))
        #expect(roll.status == 0, "\(roll.stderr)")
        let after = try gate(["--max-behind-days", "30"])
        #expect(Set(after.stale.keys) == ["t2"], "\(after.stale)")
    }

    @Test func theAuditPageGainsADriftSectionWithAChartPerMovingTenantAndNoNewScript() throws {
        let (sandbox, example) = try Self.workspace()
        let run = try sandbox.tenantctlProcess(
            [
                "audit", "--history", "--since", "2012-12-15", "--until", "2013-05-15", "--format", "html", "-o",
                "audit.html",
            ], in: example.workspace)
        #expect(run.status == 0, "\(run.stderr)")
        let page = try String(contentsOfFile: example.workspace + "/audit.html", encoding: .utf8)
        #expect(page.contains("<details id=\"dr\" open><summary>Drift over time</summary>"))
        // t1 and t2 fell behind, t3 fell behind and caught up: a chart each, the most grown first; t4 never moved.
        let captions = page.components(separatedBy: "<figcaption>").dropFirst().map {
            String($0.prefix { $0 != ":" })
        }
        #expect(captions == ["t1", "t2", "t3"], "\(captions)")
        #expect(page.contains("And 1 whose distance stayed at 0"))
        #expect(page.components(separatedBy: "<polyline").count > 3)
        // The page keeps its one inline script and its policy: the charts are SVG, no script.
        #expect(page.components(separatedBy: "<script>").count == 2)
        #expect(page.contains("default-src 'none'"))
        // Positive control: the page without --history has no such section.
        let plain = try sandbox.tenantctlProcess(["audit", "--format", "html"], in: example.workspace)
        #expect(plain.status == 0 && plain.stdout.contains("id=\"x\"") && !plain.stdout.contains("id=\"dr\""))
    }

    @Test func aSecondRunReadsTheCacheInsteadOfTheTreesTheGraphsAndTheDiffs() throws {
        let (sandbox, example) = try Self.workspace()
        let shim = try GitShim(in: sandbox)
        let arguments = [
            "audit", "--history", "--since", "2012-12-15", "--until", "2013-05-15", "--format", "csv", "--git",
            shim.path,
        ]
        /// The dated listings of whole histories (not first-parent lines), the trees' and the diffs' calls.
        func expensive(_ calls: [String]) -> [String] {
            calls.filter { call in
                (call.contains(" log ") && call.contains("%ct") && !call.contains("--first-parent"))
                    || call.contains("diff-tree") || call.contains("cat-file --batch")
            }
        }
        let first = try sandbox.tenantctlProcess(arguments, in: example.workspace)
        #expect(first.status == 0, "\(first.stderr)")
        // Positive control: the first run reads the trees, every module's history and the diffs.
        let firstCalls = try shim.calls()
        #expect(expensive(firstCalls).count >= 1 + 4 + 1 + 1, "\(firstCalls)")
        #expect(firstCalls.contains { $0.contains(" fetch") }, "the first run fetches: the filter below sees it")
        let cache = example.workspace + "/.git/tenantctl/history"
        #expect(FileManager.default.fileExists(atPath: cache + "/superproject.pins"))
        try shim.reset()
        let second = try sandbox.tenantctlProcess(arguments + ["--no-fetch"], in: example.workspace)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == first.stdout)
        // The second run: the superproject's dated listing and the project files' batch only, no module history
        // walked again, no diff.
        let secondCalls = try shim.calls()
        // --no-fetch: no network; the object store only: no checkout, no working tree, no index.
        let touching = secondCalls.filter { call in
            [
                " fetch", " ls-remote", " clone", " checkout", " switch ", " read-tree", " worktree", " submodule",
                " reset",
            ]
            .contains { call.contains($0) }
        }
        #expect(touching.isEmpty && !secondCalls.isEmpty, "\(touching)")
        let again = expensive(secondCalls)
        #expect(again.filter { $0.contains("diff-tree") }.isEmpty, "\(again)")
        #expect(again.filter { $0.contains(" log ") }.count == 1, "\(again)")
        // A damaged cache is computed again, to the same figures: the lines and the pins (the comparisons kept),
        // then the comparisons.
        for suffix in [".lines", ".pairs"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(suffix) }
            #expect(!files.isEmpty)
            for file in files {
                try "tenantctl-history-cache 1\nnot\ta\tline\n".write(
                    toFile: cache + "/" + file, atomically: true, encoding: .utf8)
            }
            try "damaged".write(toFile: cache + "/superproject.pins", atomically: true, encoding: .utf8)
            let again = try sandbox.tenantctlProcess(arguments + ["--no-fetch"], in: example.workspace)
            #expect(again.status == 0 && again.stdout == first.stdout, "\(suffix): \(again.stderr)")
        }
    }

    @Test func filtersRevisionBoundsEveryNCommitsAndUsageErrors() throws {
        let (sandbox, example) = try Self.workspace()
        let superproject = "\(example.remotes)/Superproject.git"
        // --every 1 from t3's tip (a revision: its committer date) to now: one point per general commit since, then
        // the last; only t3's Order.
        let run = try sandbox.tenantctlProcess(
            ["audit", "--history", "--since", "t3", "--every", "1", "--tenant", "t3", "--module", "Order", "--json"],
            in: example.workspace, environment: ["SOURCE_DATE_EPOCH": "1400000000"])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(json["modules"] as? [String] == ["Order"])
        let tenants = try #require(json["tenants"] as? [[String: Any]])
        #expect(tenants.map { $0["id"] as? String } == ["t3"])
        let since = try #require(Int(try sandbox.git(["log", "-1", "--format=%ct", "t3"], in: superproject)))
        let general = try sandbox.git(
            ["log", "--first-parent", "--format=%ct", "--since=\(since)", "general_dev"], in: superproject)
        let dates = Set(general.split(separator: "\n").compactMap { Int($0) }.filter { $0 >= since }).sorted()
        let expected = (dates + [1_400_000_000]).map(AuditHistory.timestamp)
        #expect(json["points"] as? [String] == expected)
        // Unknown names and values are usage errors that name what is known.
        let module = try sandbox.tenantctlProcess(
            ["audit", "--history", "--module", "Nope"], in: example.workspace)
        #expect(module.status == 64 && module.stderr.contains("Order"), "\(module.stderr)")
        let every = try sandbox.tenantctlProcess(["audit", "--history", "--every", "fortnight"], in: example.workspace)
        #expect(every.status == 64 && every.stderr.contains("day, week, month"), "\(every.stderr)")
        let bound = try sandbox.tenantctlProcess(
            ["audit", "--history", "--since", "no-such-rev"], in: example.workspace)
        #expect(bound.status != 0 && bound.stderr.contains("no-such-rev"), "\(bound.stderr)")
        let csv = try sandbox.tenantctlProcess(["audit", "--format", "csv"], in: example.workspace)
        #expect(csv.status == 64 && csv.stderr.contains("--history"), "\(csv.stderr)")
        // Positive control: the same options that are refused alone run with --history.
        let plain = try sandbox.tenantctlProcess(
            ["audit", "--history", "--format", "csv", "--module", "Order"], in: example.workspace)
        #expect(plain.status == 0 && plain.stdout.hasPrefix(HistoryCSVRenderer.header), "\(plain.stderr)")
    }
}
