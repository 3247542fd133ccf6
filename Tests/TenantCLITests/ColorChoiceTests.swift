import TenantKit
import Testing

@testable import TenantCLI

@Suite struct ColorChoiceTests {
    func environment(_ variables: [String: String], terminal: Bool) -> CommandEnvironment {
        CommandEnvironment(
            variables: variables, currentDirectory: "/", stdout: BufferOutputSink(), stderr: BufferOutputSink(),
            stdoutIsTerminal: terminal)
    }

    @Test func autoFollowsTheTerminalAndNoColor() {
        #expect(ColorChoice.auto.enabled(environment: environment([:], terminal: true)))
        #expect(!ColorChoice.auto.enabled(environment: environment([:], terminal: false)))
        #expect(!ColorChoice.auto.enabled(environment: environment(["NO_COLOR": "1"], terminal: true)))
        #expect(!ColorChoice.auto.enabled(environment: environment(["TERM": "dumb"], terminal: true)))
        #expect(ColorChoice.auto.enabled(environment: environment(["NO_COLOR": ""], terminal: true)))
        #expect(ColorChoice.always.enabled(environment: environment(["NO_COLOR": "1"], terminal: false)))
        #expect(!ColorChoice.never.enabled(environment: environment([:], terminal: true)))
    }
}
