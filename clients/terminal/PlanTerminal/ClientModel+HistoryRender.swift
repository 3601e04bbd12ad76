import ChronoSketchCore
import PlanProtocol

extension ClientModel {
    /// The history view: one line per version, newest first: version, time, user and what it
    /// did in words, with the versions that were undone marked by the version that undid them.
    func drawHistory(into canvas: inout TextCanvas, y: Int) {
        let strings = strings
        let versions = history.versions
        guard !versions.isEmpty else {
            canvas.write(history.loaded ? strings.historyEmpty : strings.historyLoading, x: 1, y: y + 1)
            return
        }
        let headings = strings.historyHeadings
        let userWidth = min(max(versions.compactMap { history.log.entries[$0]?.user.displayWidth }.max() ?? 4, 4), 16)
        let timeWidth = 16
        let columns = [
            headings.version.padded(to: 8), headings.time.padded(to: timeWidth), headings.user.padded(to: userWidth),
            headings.change,
        ]
        canvas.write(columns.joined(separator: " ").truncated(to: width), x: 0, y: y, style: .bold)
        let wording = HistoryWording(language: settings.language, title: titleLookup)
        let visible = max(bodyHeight - 1, 1)
        let shown = history.topRow..<min(history.topRow + visible, versions.count)
        for (offset, index) in shown.enumerated() {
            guard let entry = history.log.entries[versions[index]] else { continue }
            let undoneBy = history.log.undoing(entry.version)
            let kept = history.log.isKept(entry.version)
            let mark = undoneBy.map { " " + strings.undoneBy($0) } ?? ""
            let line = [
                ("v\(entry.version)" + mark).padded(to: 8),
                strings.time(entry.at, in: settings.localTime).padded(to: timeWidth),
                entry.user.truncated(to: userWidth).padded(to: userWidth),
                wording.describe(entry) { history.log.entries[$0]?.undoes } + (kept ? "" : " " + strings.notKept),
            ].joined(separator: " ")
            let style: CellStyle =
                index == history.selectedIndex
                ? settings.palette.selection : (undoneBy != nil || !kept ? .dim : .normal)
            canvas.write(line.truncated(to: width).padded(to: width), x: 0, y: y + 1 + offset, style: style)
        }
        if shown.upperBound == versions.count, shown.count < visible {
            canvas.write(
                strings.historyEnd(logStart: history.log.logStart, more: history.log.more, oldest: versions.last), x: 1,
                y: y + 1 + shown.count, style: .dim)
        }
    }

    /// The history's footer: the selected version's time with its offset from UTC (what a
    /// pointer's hover would tell), then the keys.
    var historyFooter: String {
        let versions = history.versions
        guard versions.indices.contains(history.selectedIndex),
            let entry = history.log.entries[versions[history.selectedIndex]]
        else { return strings.historyFooterHint }
        return strings.versionTime(entry.version, at: entry.at, in: settings.localTime) + "  "
            + strings.historyFooterHint
    }

    /// A task's title in the confirmed plan, for what the history names by id.
    var titleLookup: @Sendable (String) -> String? {
        let collection = collection
        return { collection?[$0]?.title }
    }
}
