import Foundation

/// A file as an input reader found it.
public enum ComposeFile: Sendable, Equatable {
    /// The file's bytes.
    case present(Data)
    /// No such file.
    case missing
    /// The path cannot be read as a file inside the repository (outside it through a symbolic link, a directory, …).
    case refused(ComposeProblem)
}
