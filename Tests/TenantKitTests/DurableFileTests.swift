import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantSupport

/// The state files' writer: the whole new content or the previous one, the file flushed, renamed into place, then
/// its directory flushed so that the rename survives a crash.
@Suite struct DurableFileTests {
    /// Records the directories flushed and what the target held at that moment.
    final class Flushes: @unchecked Sendable {
        var directories: [String] = []
        var contentAtFlush: [String] = []
    }

    @Test func theDirectoryIsFlushedAfterTheRenameAndTheContentIsThere() throws {
        let sandbox = try GitSandbox()
        let target = sandbox.path("state/journal/run.json")
        try DurableFile.write(Data("old\n".utf8), to: target)
        let flushes = Flushes()
        try DurableFile.write(Data("new\n".utf8), to: target) { directory in
            flushes.directories.append(directory)
            flushes.contentAtFlush.append((try? String(contentsOfFile: target, encoding: .utf8)) ?? "(none)")
            return DurableFile.syncDirectory(directory)
        }
        #expect(flushes.directories == [sandbox.path("state/journal")])
        // Flushed after the rename: the directory entry flushed is the new file's.
        #expect(flushes.contentAtFlush == ["new\n"])
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new\n")
        #expect(!FileManager.default.fileExists(atPath: target + ".tmp"))
    }

    @Test func aDirectoryThatCannotBeFlushedFailsTheWriteNamingTheFile() throws {
        let sandbox = try GitSandbox()
        let target = sandbox.path("run.json")
        do {
            try DurableFile.write(Data("new\n".utf8), to: target) { _ in
                errno = EIO
                return -1
            }
            Issue.record("a failed directory flush was not reported")
        } catch {
            #expect(error.path == target)
            #expect(error.reason.contains("flush its directory"), "\(error.reason)")
        }
        // The rename had happened: the file is the new one, and no temporary file is left.
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new\n")
        #expect(!FileManager.default.fileExists(atPath: target + ".tmp"))
    }

    @Test func theRealFlushesSucceedOnFilesAndDirectories() throws {
        let sandbox = try GitSandbox()
        #expect(DurableFile.syncDirectory(sandbox.root) == 0)
        #expect(DurableFile.syncDirectory(sandbox.path("missing")) == -1)
        let file = sandbox.path("file")
        try DurableFile.write(Data("x".utf8), to: file)
        let descriptor = open(file, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        #expect(DurableFile.syncFile(descriptor) == 0)
        // A new directory is created (and its parent flushed) on the first write into it.
        try DurableFile.write(Data("y".utf8), to: sandbox.path("a/b/c/state.json"))
        #expect(try String(contentsOfFile: sandbox.path("a/b/c/state.json"), encoding: .utf8) == "y")
    }
}
