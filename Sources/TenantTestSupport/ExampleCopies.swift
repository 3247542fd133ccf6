import Foundation
import TenantExample
import TenantKit

extension GitSandbox {
    /// The example at `stage` in `directory` (missing or empty), as `ExampleBuilder.build(in:stage:)` creates it, with
    /// the same commit ids: a copy of the build this test process made once (``DirectoryTemplates``), for a fraction
    /// of the cost of a build. A test that checks the builder itself calls `ExampleBuilder`.
    public func exampleCopy(in directory: String, stage: ExampleStage) throws -> ExampleResult {
        let (built, template) = try DirectoryTemplates.shared.copy(Self.templateKey(stage), to: directory) {
            try ExampleBuilder(git: try gitRunner()).build(in: $0, stage: stage)
        }
        let root = URL(fileURLWithPath: directory).standardizedFileURL.path
        func moved(_ path: String) -> String { path.hasPrefix(template) ? root + path.dropFirst(template.count) : path }
        var copy = built
        copy.directory = moved(built.directory)
        copy.remotes = moved(built.remotes)
        copy.workspace = moved(built.workspace)
        return copy
    }

    /// The directory of the example's template at `stage` (built when this process has not built it yet), for tests
    /// that check that copies leave it alone; never write into it.
    public func exampleTemplate(stage: ExampleStage) throws -> String {
        try DirectoryTemplates.shared.template(Self.templateKey(stage)) {
            try ExampleBuilder(git: try gitRunner()).build(in: $0, stage: stage)
        }.directory
    }

    private static func templateKey(_ stage: ExampleStage) -> String { "example-" + stage.rawValue }
}
