/// Where an export's text goes as it is written: either kept whole (for an HTTP answer, whose
/// header names the warnings before the body) or handed on in pieces of about `pieceBytes`, so
/// that a command writing a 100,000-task plan to standard output never holds the whole text.
public struct ExportOutput {
    private var pending = ""
    private let emit: ((String) -> Void)?
    private let pieceBytes: Int

    /// An output that keeps the whole text (`finish` returns it).
    public init() {
        emit = nil
        pieceBytes = .max
    }

    /// An output that hands on a piece to `emit` once `pieceBytes` or more are pending, and the
    /// rest at `finish`.
    public init(pieceBytes: Int = 1 << 16, emit: @escaping (String) -> Void) {
        self.emit = emit
        self.pieceBytes = pieceBytes
    }

    /// Appends `text`.
    public mutating func write(_ text: String) {
        pending += text
        if let emit, pending.utf8.count >= pieceBytes {
            emit(pending)
            pending = ""
        }
    }

    /// Hands on what is left; returns the whole text for an output that keeps it, else "".
    public mutating func finish() -> String {
        guard let emit else { return pending }
        if !pending.isEmpty { emit(pending) }
        pending = ""
        return ""
    }
}
