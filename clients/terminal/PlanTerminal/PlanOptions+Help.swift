import ChronoSketchCore

/// `plan --help` and `plan SUBCOMMAND --help`, in English or German.
extension PlanOptions {
    /// The help text for `plan --help` or `plan SUBCOMMAND --help`.
    public static func helpText(_ subcommand: Subcommand?, language: PlanLanguage = .english) -> String {
        let de = language == .german
        switch subcommand {
        case nil: return de ? germanOverview : overview
        case .show:
            return de
                ? "Aufruf: plan show [Optionen]\n\nZeigt die Aufgabenliste: Art, Termine (Beginn – letzter Tag), "
                    + "Fortschritt (Gruppen: der abgeleitete Mittelwert).\n\n" + germanConnection
                : "Usage: plan show [options]\n\nPrints the hierarchical task list: kind, dates (start – last day), "
                    + "progress (summaries: the derived mean).\n\n" + connection
        case .chart: return de ? germanChart : chart
        case .watch:
            return de
                ? "Aufruf: plan watch [Optionen]\n\nAbonniert den Plan und gibt jede Nachricht des Servers als "
                    + "eine JSON-Zeile aus, bis die Verbindung endet.\n\n" + germanConnection
                : "Usage: plan watch [options]\n\nSubscribes to the plan and prints every server message as a "
                    + "JSON line until the connection ends.\n\n" + connection
        case .propose: return de ? germanPropose : propose
        case .export:
            return de
                ? "Aufruf: plan export [Optionen]\n\nGibt den bestätigten Plan als ein JSON-Dokument aus: den "
                    + "Snapshot (plan, version, title, tasks, dependencies, resources, summaries).\n\n"
                    + germanConnection
                : "Usage: plan export [options]\n\nPrints the confirmed plan as one JSON document: the snapshot "
                    + "(plan, version, title, tasks, dependencies, resources, summaries).\n\n" + connection
        }
    }

    private static let connection = """
        Connection (every command; in any order, as --name VALUE or --name=VALUE, each once):
          --server URL       ws://host:port/ws (or PLAN_SERVER)
          --token TOKEN      your secret token (or PLAN_TOKEN)
          --plan ID          the plan (or PLAN_PLAN)
          --language en|de   labels, month names and messages in English or German

        """

    private static let germanConnection = """
        Verbindung (jeder Befehl; in beliebiger Reihenfolge, als --name WERT oder --name=WERT, je einmal):
          --server URL       ws://host:port/ws (oder PLAN_SERVER)
          --token TOKEN      Ihr geheimes Token (oder PLAN_TOKEN)
          --plan ID          der Plan (oder PLAN_PLAN)
          --language en|de   Beschriftungen, Monatsnamen und Meldungen auf Englisch oder Deutsch

        """

    private static let overview = """
        plan — the ChronoSketch terminal client

        Usage:
          plan [options]                 the interactive client (list, timeline, resources)
          plan SUBCOMMAND [options]      one scriptable task

        Subcommands:
          show      the task list with kinds, dates, progress and derived summary values
          chart     the timeline as plain text
          watch     every server message as one JSON line
          propose   send one proposal and print the outcome
          export    the confirmed plan as JSON

        \(connection)
        Interactive options:
          --title T          the heading (default: the plan's title)
          --start YYYY-MM-DD the timeline horizon's first day (default: today)
          --days N           the horizon's length in days (default: 90)

        In the client press ? for every key. `plan SUBCOMMAND --help` explains a subcommand.

        """

    private static let germanOverview = """
        plan — der Terminal-Client von ChronoSketch

        Aufruf:
          plan [Optionen]                der interaktive Client (Liste, Zeitachse, Ressourcen)
          plan UNTERBEFEHL [Optionen]    eine skriptfähige Aufgabe

        Unterbefehle:
          show      die Aufgabenliste mit Art, Terminen, Fortschritt und abgeleiteten Gruppenwerten
          chart     die Zeitachse als reiner Text
          watch     jede Nachricht des Servers als eine JSON-Zeile
          propose   einen Vorschlag senden und das Ergebnis ausgeben
          export    den bestätigten Plan als JSON

        \(germanConnection)
        Optionen des interaktiven Clients:
          --title T          die Überschrift (Vorgabe: der Titel des Plans)
          --start JJJJ-MM-TT der erste Tag der Zeitachse (Vorgabe: heute)
          --days N           die Länge der Zeitachse in Tagen (Vorgabe: 90)

        Im Client zeigt ? alle Tasten. `plan UNTERBEFEHL --help` erklärt einen Unterbefehl.

        """

    private static let chart = """
        Usage: plan chart [--start D] [--days N] [--zoom Z] [--width W] [options]

        Prints the timeline as plain text (no escape codes): the pinned task names, three
        header rows (month, ISO week with its week-year, day or column range), bars with
        progress (█ done, ░ to do; summaries ▓/▒), milestones ◆ and dependency arrows.
          --start D   the first day (default today)
          --days N    the number of days (default 90)
          --zoom Z    days per column: 1, 2, 4, 6 or 8 (default 1)
          --width W   the line width (default: the terminal's, or the whole horizon)

        """ + connection

    private static let germanChart = """
        Aufruf: plan chart [--start D] [--days N] [--zoom Z] [--width W] [Optionen]

        Gibt die Zeitachse als reinen Text aus (ohne Steuerzeichen): die fixierten Aufgabennamen,
        drei Kopfzeilen (Monat, KW mit ihrem Wochenjahr, Tag oder Spaltenbereich), Balken mit
        Fortschritt (█ erledigt, ░ offen; Gruppen ▓/▒), Meilensteine ◆ und Abhängigkeitspfeile.
          --start D   der erste Tag (Vorgabe: heute)
          --days N    die Anzahl der Tage (Vorgabe: 90)
          --zoom Z    Tage je Spalte: 1, 2, 4, 6 oder 8 (Vorgabe: 1)
          --width W   die Zeilenbreite (Vorgabe: die des Terminals, sonst der ganze Zeitraum)

        """ + germanConnection

    private static let propose = """
        Usage: plan propose FILE|- [options]

        Sends one proposal: FILE (or standard input for -) holds an op, e.g.
          {"type":"replace","previous":{…},"proposed":{…}}
        or a whole propose message {"type":"propose","op":{…}}. Prints the outcome.
        Exit status: 0 confirmed, 1 rejected, 2 error.

        """ + connection

    private static let germanPropose = """
        Aufruf: plan propose DATEI|- [Optionen]

        Sendet einen Vorschlag: DATEI (oder bei - die Standardeingabe) enthält eine Operation, z. B.
          {"type":"replace","previous":{…},"proposed":{…}}
        oder eine ganze propose-Nachricht {"type":"propose","op":{…}}. Gibt das Ergebnis aus.
        Rückgabewert: 0 bestätigt, 1 abgelehnt, 2 Fehler.

        """ + germanConnection
}
