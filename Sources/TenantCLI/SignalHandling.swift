import Foundation
import TenantKit

/// SIGINT / SIGTERM: stop child git processes (git removes its lock files), then exit 130.
enum SignalHandling {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                ChildProcesses.shared.terminateAll()
                FileHandle.standardError.write(Data("tenantctl: interrupted; stopped git processes\n".utf8))
                exit(ExitStatus.interrupted.rawValue)
            }
            source.resume()
            sources.append(source)
        }
    }
}
