@testable import PlanTerminal

/// Types `text` into `model` key by key, as a person at the keyboard would.
func type(_ text: String, into model: inout ClientModel) {
    for character in text { _ = model.handle(.key(.character(character))) }
}

/// `text` as the keys a terminal delivers: Escape for "\u{1b}", each other character as itself.
func keys(_ text: String) -> [Key] { text.map { $0 == "\u{1b}" ? .escape : .character($0) } }
