import ChronoSketchCore
import Glibc

/// The locale the interactive client draws in, and the language the environment asks for.
///
/// ncursesw decodes what it draws by the process's `LC_CTYPE`: under `LANG=C`, or a locale that
/// is not installed, every non-ASCII character would show as bytes (` ~V`). The client then draws
/// under `C.UTF-8` instead and says so once.
public enum TerminalLocale {
    /// A locale that could not be used as asked.
    public enum Fallback: Sendable, Hashable {
        /// The locale named is not installed; `using` is drawn in instead.
        case missing(String, using: String)
        /// The locale named is not UTF-8; `using` is drawn in instead.
        case notUTF8(String, using: String)
        /// Not UTF-8, and no UTF-8 locale to fall back to.
        case unavailable(String)
    }

    /// The UTF-8 locales tried in turn (glibc 2.35 names `C.UTF-8` itself).
    static let utf8Locales = ["C.UTF-8", "C.utf8", "en_US.UTF-8"]

    /// The locale the environment names for `variable` (`LC_MESSAGES`, `LC_CTYPE`) as POSIX reads
    /// it: `LC_ALL`, else the variable, else `LANG`; nil when none is set.
    public static func name(for variable: String, in environment: [String: String]) -> String? {
        for key in ["LC_ALL", variable, "LANG"] {
            if let value = environment[key], !value.isEmpty { return value }
        }
        return nil
    }

    /// The language the environment asks for: German for a `de` or `de_*` message locale,
    /// English otherwise.
    public static func language(in environment: [String: String]) -> PlanLanguage {
        guard let name = name(for: "LC_MESSAGES", in: environment) else { return .english }
        return name == "de" || name.hasPrefix("de_") || name.hasPrefix("de.") ? .german : .english
    }

    /// What to do with the locale the environment asks for: nil when it can be used as it is
    /// (it exists and is UTF-8), else why not. `installed` says whether `setlocale` took it,
    /// `codeset` is its `nl_langinfo(nl_item(CODESET))`, `fallback` the UTF-8 locale there is (if any).
    public static func decide(asked: String, installed: Bool, codeset: String, fallback: String?) -> Fallback? {
        let utf8 = codeset.uppercased().replacingOccurrences("-", "") == "UTF8"
        if installed && utf8 { return nil }
        guard let fallback else { return .unavailable(asked) }
        return installed ? .notUTF8(asked, using: fallback) : .missing(asked, using: fallback)
    }

    /// Sets the process locale from the environment (`setlocale(LC_ALL, "")`); where that locale
    /// is missing or not UTF-8, sets `LC_CTYPE` (all categories, when it is missing) to the first
    /// UTF-8 locale installed. Returns what was done instead of what was asked, nil when nothing.
    static func useUTF8(environment: [String: String]) -> Fallback? {
        let asked = name(for: "LC_CTYPE", in: environment) ?? "C"
        let installed = setlocale(LC_ALL, "") != nil
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        if installed, decide(asked: asked, installed: true, codeset: codeset, fallback: nil) == nil { return nil }
        let fallback = utf8Locales.first { setlocale(installed ? LC_CTYPE : LC_ALL, $0) != nil }
        return decide(asked: asked, installed: installed, codeset: codeset, fallback: fallback)
    }
}

extension String {
    /// The string with every `target` replaced by `replacement` (no Foundation here).
    fileprivate func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        String(flatMap { $0 == target ? Array(replacement) : [$0] })
    }
}
