import ChronoSketchCore
import Glibc
import SystemSupport

extension ClientConfig {
    /// The configuration file read from where `path(environment:)` says, with what the footer
    /// says at the start about it (the lines ignored, or a file that could not be read); the
    /// defaults, silently, when there is no file.
    static func load(environment: [String: String], language: PlanLanguage) -> (config: ClientConfig, notice: String?) {
        guard let path = path(environment: environment) else { return (ClientConfig(), nil) }
        let text: String
        do {
            text = try Files.readText(path)
        } catch {
            // No file is the usual case: nothing to say.
            guard access(path, F_OK) == 0 else { return (ClientConfig(), nil) }
            return (ClientConfig(), TerminalStrings(language).configIgnored(path, ["\(error)"]))
        }
        let config = ClientConfig.parse(text, language: language)
        let notice = config.problems.isEmpty ? nil : TerminalStrings(language).configIgnored(path, config.problems)
        return (config, notice)
    }
}
