/// The next step printed after "interrupted" (exit 130): what an interrupted command left behind and what to do.
/// A command sets it as its state changes (a roll: "nothing was published — run again" until it starts
/// publishing, then its run id and `roll --undo`); nothing is printed while it is unset.
public enum InterruptNote {
    private static let note = Locked<String?>(nil)

    /// Sets the note (nil: none).
    public static func set(_ text: String?) { note.withLock { $0 = text } }

    /// The note, if any.
    public static var current: String? { note.current }
}
