import Foundation

/// Writes to a file descriptor (stdout, stderr).
public struct FileOutputSink: OutputSink {
    private let handle: FileHandle

    public init(_ handle: FileHandle) { self.handle = handle }

    public func write(_ text: String) {
        // The UTF-8 bytes in place (`Data(text.utf8)` copied a 19 MB audit report byte by byte). A closed stdout
        // is not worth failing the run for.
        var text = text
        text.withUTF8 { bytes in try? handle.write(contentsOf: UnsafeRawBufferPointer(bytes)) }
    }

    public func write(bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in try? handle.write(contentsOf: buffer) }
    }
}
