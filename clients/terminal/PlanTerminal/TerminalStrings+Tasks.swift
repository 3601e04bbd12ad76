import ChronoSketchCore

/// The labels of a task's details and of the forms' checks.
extension TerminalStrings {
    /// The labels of a task's details, and the widest one's length.
    public var taskInfoLabels:
        (
            title: String, kind: String, dates: String, progress: String, group: String, predecessors: String,
            successors: String, width: Int
        )
    {
        let labels =
            de
            ? ["Titel", "Art", "Termine", "Fortschritt", "Gruppe", "Vorgänger", "Nachfolger"]
            : ["Title", "Kind", "Dates", "Progress", "Group", "Predecessors", "Successors"]
        return (
            labels[0], labels[1], labels[2], labels[3], labels[4], labels[5], labels[6],
            labels.map(\.displayWidth).max() ?? 0
        )
    }

    /// "3 days" / "3 Tage".
    public func days(_ count: Int) -> String {
        "\(count) " + (de ? (count == 1 ? "Tag" : "Tage") : (count == 1 ? "day" : "days"))
    }

    /// A root task's group.
    public var topLevel: String { de ? "(oberste Ebene)" : "(top level)" }

    /// Why Save is off: a required field is blank.
    public func requiredBlank(_ label: String) -> String {
        de ? "„\(label)“ ist leer: Speichern ist erst mit Inhalt möglich." : "\(label) is empty: fill it in to save."
    }

    /// The heading of `plan show`'s predecessors column.
    public var predecessorsColumn: String { de ? "Vorgänger" : "Predecessors" }

    /// A dependency type in words.
    public func dependencyType(_ type: DependencyType) -> String {
        switch type {
        case .finishToStart: de ? "Ende → Anfang" : "finish → start"
        case .startToStart: de ? "Anfang → Anfang" : "start → start"
        case .finishToFinish: de ? "Ende → Ende" : "finish → finish"
        case .startToFinish: de ? "Anfang → Ende" : "start → finish"
        }
    }

    /// What a dependency says besides its ends: its type unless finish-to-start and its lag
    /// unless 0, in brackets (empty for a plain one).
    public func dependencySuffix(_ dependency: TaskDependency) -> String {
        var parts: [String] = []
        if dependency.type != .finishToStart { parts.append(dependencyType(dependency.type)) }
        if dependency.lag != 0 { parts.append(signedLag(dependency.lag) + " " + (de ? "AT" : "wd")) }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }

    /// A lag with its sign: "+2", "−3".
    func signedLag(_ lag: Int) -> String { (lag > 0 ? "+" : "−") + String(abs(lag)) }

    /// A dependency's label on its arrow: its type's short code unless finish-to-start (SS, FF,
    /// SF; German AA, EE, AE) and its lag unless 0 ("SS +2", "+3"); nil for a plain one.
    public func dependencyLabel(_ dependency: TaskDependency) -> String? {
        var parts: [String] = []
        switch dependency.type {
        case .finishToStart: break
        case .startToStart: parts.append(de ? "AA" : "SS")
        case .finishToFinish: parts.append(de ? "EE" : "FF")
        case .startToFinish: parts.append(de ? "AE" : "SF")
        }
        if dependency.lag != 0 { parts.append(signedLag(dependency.lag)) }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// A rejected proposal's schedule conflict, and the key that moves the task (when it can).
    public func conflict(_ title: String, earliest: CivilDate, canMove: Bool) -> String {
        let first =
            de
            ? "„\(title)“ kann frühestens am \(date(earliest)) beginnen."
            : "“\(title)” cannot start before \(date(earliest))."
        guard canMove else { return first }
        return first + (de ? " M: dorthin verschieben" : " M: move it there")
    }

    /// The offered move went out.
    public func movingTo(_ earliest: CivilDate?) -> String {
        (de ? "Wird verschoben auf " : "Moving to ") + (earliest.map(date) ?? "…") + " …"
    }

    /// The heading's count of the tasks the last version pushed.
    public func pushed(_ count: Int) -> String {
        de ? "\(count) verschoben" : "\(count) pushed"
    }
}
