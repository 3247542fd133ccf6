import Foundation
import TenantKit
import Testing

@testable import TenantTransaction

/// The run journals' bytes do not depend on how tenantctl holds ids in memory: journals written by tenantctl (a roll,
/// two switches and a `tenant add` on the example, kept here as they were on the disk, `HEAD` steps included) read and
/// write back byte for byte, and still replay to finished runs. A change to the types the steps are decoded into
/// (typed ids, typed ref names) must keep this.
@Suite struct JournalBytesTests {
    /// Whole journal files, each line one step.
    static let written: [String] = [
        // `tenantctl roll`
        #"""
        {"begin":{"arguments":[],"command":"roll","createdAt":"2026-11-27T08:10:04Z","entries":[{"new":"40c5725efd8dc0fd27b2c13a6cae15eabf85be6b","old":"c0c0637f167f6d11678c4b2a1566bdade4364427","ref":"refs/heads/t2","remote":"/tmp/hs/ex/remotes/Infrastructure.git","repository":"Infrastructure"},{"new":"3a7fddc86627278ed7ef423d98c83070dea85a3f","old":"44feaafbfef49cd586beb511bfd53f6eb81c4fd8","ref":"refs/heads/t3","remote":"/tmp/hs/ex/remotes/Order.git","repository":"Order"}],"runId":"20261127-081007-048fd8","schemaVersion":1,"state":"running","worktree":"/tmp/hs/ex/workspace"}}
        {"answer":{"published":true,"refs":["refs/heads/t2"],"repository":"Infrastructure"}}
        {"answer":{"published":true,"refs":["refs/heads/t3"],"repository":"Order"}}
        {"record":{"refs":[{"new":"f197c917161aaeeb7f2d53c1d31b47407acef33c","old":"aa68607dd863fdab49ce52d466636b9938391b5f","ref":"refs/heads/general_dev"},{"new":"5fd474ce3f670e062518dc381bc003d816403447","old":"f427df0b018c288b5a51558c9845d403426d55f4","ref":"refs/heads/t1"},{"new":"ef9265f78e9cf6d90ddd9c482833b2082f680c65","old":"68833019b4f135d919e831bfa435b800aa2d7e98","ref":"refs/heads/t2"},{"new":"2601d442fdb781757a51bd79eb8e24891834de64","old":"eb8e6f46d2de29436b000c99a029d11bfd30c523","ref":"refs/heads/t3"}],"remote":"origin","repository":"superproject"}}
        {"answer":{"published":true,"refs":["refs/heads/general_dev","refs/heads/t1","refs/heads/t2","refs/heads/t3"],"repository":"superproject"}}
        {"end":{"state":"finished"}}
        """#,
        // `tenantctl switch t2`
        #"""
        {"begin":{"arguments":["t2"],"before":[],"changed":false,"command":"switch","createdAt":"2026-11-27T08:10:10Z","entries":[],"runId":"20261127-081010-0c6852","schemaVersion":1,"state":"running","worktree":"/tmp/hs/ex/workspace"}}
        {"before":[{"branch":"general_dev","head":"aa68607dd863fdab49ce52d466636b9938391b5f","initialises":false,"path":"","repository":"superproject","started":false,"target":"ef9265f78e9cf6d90ddd9c482833b2082f680c65","targetBranch":"t2"},{"branch":"general_dev","head":"58e28f00ea0662037d88604231293dee9473a388","initialises":false,"path":"Modules/Infrastructure","repository":"Infrastructure","started":false,"target":"40c5725efd8dc0fd27b2c13a6cae15eabf85be6b","targetBranch":"t2"},{"branch":"general_dev","head":"04cdd815b7782b07434801949e4d97b4eec531f8","initialises":false,"path":"Modules/Article","repository":"Article","started":false,"target":"fefc066abd8b749584b57c7f4245ddccc30e8208","targetBranch":"general_dev","targetBranchTip":"04cdd815b7782b07434801949e4d97b4eec531f8"},{"branch":"general_dev","head":"fdeff2e94b5f389db0af901fde41b684be9e9c65","initialises":false,"path":"Modules/Customer","repository":"Customer","started":false,"target":"4d9ef10dfd294d01e0cd9d9e6ec543acab394fe8","targetBranch":"t2"},{"branch":"general_dev","head":"dad6ffc1c017562b763b786ca633dcf9ebf36770","initialises":false,"path":"Modules/Order","repository":"Order","started":false,"target":"fd71ab6635da493082d95438c0d5cd966cf4218f","targetBranch":"general_dev","targetBranchTip":"dad6ffc1c017562b763b786ca633dcf9ebf36770"}]}
        {"started":"superproject"}
        {"record":{"landed":true,"refs":[{"new":"ef9265f78e9cf6d90ddd9c482833b2082f680c65","old":"aa68607dd863fdab49ce52d466636b9938391b5f","ref":"HEAD"},{"new":"ef9265f78e9cf6d90ddd9c482833b2082f680c65","ref":"refs/heads/t2"}],"remote":"","repository":"superproject"}}
        {"started":"Infrastructure"}
        {"record":{"landed":true,"refs":[{"new":"40c5725efd8dc0fd27b2c13a6cae15eabf85be6b","old":"58e28f00ea0662037d88604231293dee9473a388","ref":"HEAD"},{"new":"40c5725efd8dc0fd27b2c13a6cae15eabf85be6b","ref":"refs/heads/t2"}],"remote":"","repository":"Infrastructure"}}
        {"started":"Article"}
        {"record":{"landed":true,"refs":[{"new":"fefc066abd8b749584b57c7f4245ddccc30e8208","old":"04cdd815b7782b07434801949e4d97b4eec531f8","ref":"HEAD"},{"new":"fefc066abd8b749584b57c7f4245ddccc30e8208","old":"04cdd815b7782b07434801949e4d97b4eec531f8","ref":"refs/heads/general_dev"}],"remote":"","repository":"Article"}}
        {"started":"Customer"}
        {"record":{"landed":true,"refs":[{"new":"4d9ef10dfd294d01e0cd9d9e6ec543acab394fe8","old":"fdeff2e94b5f389db0af901fde41b684be9e9c65","ref":"HEAD"},{"new":"4d9ef10dfd294d01e0cd9d9e6ec543acab394fe8","ref":"refs/heads/t2"}],"remote":"","repository":"Customer"}}
        {"started":"Order"}
        {"record":{"landed":true,"refs":[{"new":"fd71ab6635da493082d95438c0d5cd966cf4218f","old":"dad6ffc1c017562b763b786ca633dcf9ebf36770","ref":"HEAD"},{"new":"fd71ab6635da493082d95438c0d5cd966cf4218f","old":"dad6ffc1c017562b763b786ca633dcf9ebf36770","ref":"refs/heads/general_dev"}],"remote":"","repository":"Order"}}
        {"end":{"state":"finished"}}
        """#,
        // `tenantctl tenant add t4 --from t2`
        #"""
        {"begin":{"arguments":["t4","--from","t2"],"before":[],"changed":false,"command":"tenant add","createdAt":"2026-11-27T08:10:15Z","entries":[],"runId":"20261127-081015-1b91f8","schemaVersion":1,"state":"running","worktree":"/tmp/hs/ex/workspace"}}
        {"record":{"refs":[{"new":"40c5725efd8dc0fd27b2c13a6cae15eabf85be6b","ref":"refs/heads/t4"}],"remote":"/tmp/hs/ex/remotes/Infrastructure.git","repository":"Infrastructure"}}
        {"record":{"refs":[{"new":"4d9ef10dfd294d01e0cd9d9e6ec543acab394fe8","ref":"refs/heads/t4"}],"remote":"/tmp/hs/ex/remotes/Customer.git","repository":"Customer"}}
        {"record":{"refs":[{"old":"f197c917161aaeeb7f2d53c1d31b47407acef33c","ref":"refs/heads/general_dev"},{"ref":"refs/heads/t4"}],"remote":"origin","repository":"superproject"}}
        {"record":{"published":true,"refs":[{"new":"40c5725efd8dc0fd27b2c13a6cae15eabf85be6b","ref":"refs/heads/t4"}],"remote":"","repository":"Infrastructure"}}
        {"record":{"published":true,"refs":[{"new":"4d9ef10dfd294d01e0cd9d9e6ec543acab394fe8","ref":"refs/heads/t4"}],"remote":"","repository":"Customer"}}
        {"record":{"published":true,"refs":[{"new":"293d34939b55d6f6d6553e00634d3bbc48548074","ref":"refs/heads/general_dev"},{"new":"ad99708dd85bf85ff2d31e05b2e3e3d1e31bcfed","ref":"refs/heads/t4"}],"remote":"","repository":"superproject"}}
        {"end":{"state":"finished"}}
        """#,
        // `tenantctl switch t3`
        #"""
        {"begin":{"arguments":["t3"],"before":[],"changed":false,"command":"switch","createdAt":"2026-11-27T08:10:18Z","entries":[],"runId":"20261127-081018-296fe1","schemaVersion":1,"state":"running","worktree":"/tmp/hs/ex/workspace"}}
        {"before":[{"branch":"t2","head":"ef9265f78e9cf6d90ddd9c482833b2082f680c65","initialises":false,"path":"","repository":"superproject","started":false,"target":"2601d442fdb781757a51bd79eb8e24891834de64","targetBranch":"t3"},{"branch":"t2","head":"40c5725efd8dc0fd27b2c13a6cae15eabf85be6b","initialises":false,"path":"Modules/Infrastructure","repository":"Infrastructure","started":false,"target":"d9d4270546adfb0617964f94e5d7bab52af5763c","targetBranch":"general_dev","targetBranchTip":"58e28f00ea0662037d88604231293dee9473a388"},{"branch":"general_dev","head":"fefc066abd8b749584b57c7f4245ddccc30e8208","path":"Modules/Article","repository":"Article"},{"branch":"t2","head":"4d9ef10dfd294d01e0cd9d9e6ec543acab394fe8","initialises":false,"path":"Modules/Customer","repository":"Customer","started":false,"target":"fdeff2e94b5f389db0af901fde41b684be9e9c65","targetBranch":"general_dev","targetBranchTip":"fdeff2e94b5f389db0af901fde41b684be9e9c65"},{"branch":"general_dev","head":"fd71ab6635da493082d95438c0d5cd966cf4218f","initialises":false,"path":"Modules/Order","repository":"Order","started":false,"target":"3a7fddc86627278ed7ef423d98c83070dea85a3f","targetBranch":"t3"}]}
        {"started":"superproject"}
        {"record":{"landed":true,"refs":[{"new":"2601d442fdb781757a51bd79eb8e24891834de64","old":"ef9265f78e9cf6d90ddd9c482833b2082f680c65","ref":"HEAD"},{"new":"2601d442fdb781757a51bd79eb8e24891834de64","ref":"refs/heads/t3"}],"remote":"","repository":"superproject"}}
        {"started":"Infrastructure"}
        {"record":{"landed":true,"refs":[{"new":"d9d4270546adfb0617964f94e5d7bab52af5763c","old":"40c5725efd8dc0fd27b2c13a6cae15eabf85be6b","ref":"HEAD"},{"new":"d9d4270546adfb0617964f94e5d7bab52af5763c","old":"58e28f00ea0662037d88604231293dee9473a388","ref":"refs/heads/general_dev"}],"remote":"","repository":"Infrastructure"}}
        {"started":"Customer"}
        {"record":{"landed":true,"refs":[{"new":"fdeff2e94b5f389db0af901fde41b684be9e9c65","old":"4d9ef10dfd294d01e0cd9d9e6ec543acab394fe8","ref":"HEAD"}],"remote":"","repository":"Customer"}}
        {"started":"Order"}
        {"record":{"landed":true,"refs":[{"new":"3a7fddc86627278ed7ef423d98c83070dea85a3f","old":"fd71ab6635da493082d95438c0d5cd966cf4218f","ref":"HEAD"},{"new":"3a7fddc86627278ed7ef423d98c83070dea85a3f","ref":"refs/heads/t3"}],"remote":"","repository":"Order"}}
        {"end":{"state":"finished"}}
        """#,
    ]

    @Test func journalsWrittenBeforeTheTypedIdsWriteBackByteForByte() throws {
        #expect(Self.written.count == 4)
        for text in Self.written {
            let data = Data((text + "\n").utf8)
            let lines = try data.split(separator: 0x0A).map {
                try JSONDecoder().decode(RunJournal.Line.self, from: Data($0))
            }
            #expect(lines.count > 3, "\(text.prefix(80))")
            #expect(RunJournal.encode(lines) == data, "\(text.prefix(80))")
            // Replayed, each is a finished run with its steps.
            let journal = try RunJournal.replay(data, path: "journal", runId: "run")
            #expect(!journal.entries.isEmpty && journal.state == .finished, "\(text.prefix(80))")
        }
    }

    @Test func aChangedByteIsSeen() throws {
        // Positive control: the comparison sees one step written differently (the run's end).
        let text = Self.written[0]
        let data = Data((text + "\n").utf8)
        var lines = try data.split(separator: 0x0A).map {
            try JSONDecoder().decode(RunJournal.Line.self, from: Data($0))
        }
        #expect(RunJournal.encode(lines) == data)
        lines[lines.count - 1] = RunJournal.Line(end: .init(state: .failed))
        #expect(RunJournal.encode(lines) != data)
    }
}
