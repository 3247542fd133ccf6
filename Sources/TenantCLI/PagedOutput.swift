import Foundation
import TenantKit

/// A command's report held back while it runs, then shown through the pager (``Pager``) when it is taller than the
/// terminal, else printed as it is. Only a command that asks for it (``TenantctlCommand/pagesOutput``), only when
/// stdout is a terminal of this very process, never with `--json` or `--no-pager`.
struct PagedOutput {
    /// Where the command writes its report meanwhile.
    let buffer = BufferOutputSink()
    let environment: CommandEnvironment

    /// A held-back output for `command`, or nil when its output goes straight to stdout.
    static func begin(_ command: any TenantctlCommand, environment: CommandEnvironment) -> PagedOutput? {
        guard environment.pagerAllowed, environment.stdoutIsTerminal, command.pagesOutput, !command.global.json,
            !command.global.noPager
        else { return nil }
        return PagedOutput(environment: environment)
    }

    /// Shows what the command wrote: through the pager when it does not fit the terminal's rows (`columns` wide),
    /// else on stdout. `core.pager` is read in `repository`, the directory the command ran in (nil: the command never
    /// got that far). A pager that cannot be started is a warning and the text is printed as it is.
    func finish(columns: Int, repository: GitRepository?) {
        let text = buffer.text
        guard !text.isEmpty else { return }
        let variables = environment.variables
        if let rows = Pager.rows(variables: variables), Pager.height(of: text, columns: columns) < rows {
            environment.stdout.write(text)
            return
        }
        let command: String?
        do {
            command = try Pager.command(variables: variables) {
                try repository.flatMap { try $0.configValue("core.pager", context: "read core.pager") }
            }
        } catch {
            environment.stderr.write("warning: \(error); printing without a pager\n")
            command = nil
        }
        guard let command else {
            environment.stdout.write(text)
            return
        }
        SignalHandling.ignoreWhilePaging()
        do {
            try Pager.show(text, command: command, environment: variables)
        } catch {
            environment.stderr.write("warning: \(error); printing without a pager\n")
            environment.stdout.write(text)
        }
    }
}
