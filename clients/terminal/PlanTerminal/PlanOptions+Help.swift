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
                ? "Aufruf: plan show [--version V] [Optionen]\n\nZeigt die Aufgabenliste: Art, Termine (Beginn – "
                    + "letzter Tag), Fortschritt (Gruppen: der abgeleitete Mittelwert), Puffer in Arbeitstagen "
                    + "(kritische Aufgaben markiert) und Vorgänger.\n"
                    + "  --version V   der Plan, wie er in Version V war\n\n" + germanConnection
                : "Usage: plan show [--version V] [options]\n\nPrints the hierarchical task list: kind, dates (start – "
                    + "last day), progress (summaries: the derived mean), slack in working days (critical tasks "
                    + "marked) and predecessors.\n"
                    + "  --version V   the plan as it was at version V\n\n" + connection
        case .history: return de ? germanHistory : history
        case .schedule:
            return de
                ? "Aufruf: plan schedule [--version V] [Optionen]\n\nZeigt das Ende des Plans und für jede Aufgabe mit "
                    + "Terminen den spätesten Beginn, das späteste Ende (exklusiv), den Puffer in Arbeitstagen und ob "
                    + "sie kritisch ist (Puffer 0 oder weniger), wie der Server sie berechnet.\n"
                    + "  --version V   die Werte der Version V\n\n" + germanConnection
                : "Usage: plan schedule [--version V] [options]\n\nPrints the plan's finish and, for every scheduled "
                    + "task, its late start, late finish (exclusive), slack in working days and whether it is critical "
                    + "(slack 0 or less), as the server computes them.\n"
                    + "  --version V   the figures of version V\n\n" + connection
        case .chart: return de ? germanChart : chart
        case .watch:
            return de
                ? "Aufruf: plan watch [Optionen]\n\nAbonniert den Plan und gibt jede Nachricht des Servers als "
                    + "eine JSON-Zeile aus, bis die Verbindung endet.\n\n" + germanConnection
                : "Usage: plan watch [options]\n\nSubscribes to the plan and prints every server message as a "
                    + "JSON line until the connection ends.\n\n" + connection
        case .propose: return de ? germanPropose : propose
        case .export: return de ? germanExport : export
        case .bookings: return de ? germanBookings : bookings
        case .feed: return de ? germanFeed : feed
        }
    }

    static let connection = """
        Connection (every command; in any order, as --name VALUE or --name=VALUE, each once):
          --server URL       ws://host:port/ws (or PLAN_SERVER)
          --token TOKEN      your secret token (or PLAN_TOKEN)
          --plan ID          the plan (or PLAN_PLAN)
          --language en|de   labels, month names and messages in English or German
          --ca-file PEM      also trust these certificates for wss:// (a self-signed server's;
                             or PLAN_CA_FILE)
          --idle-timeout S   a silent server is pinged after 2/5 of S and given up after S seconds
                             (default 25), so that a cut link is noticed and the client reconnects

        """

    static let germanConnection = """
        Verbindung (jeder Befehl; in beliebiger Reihenfolge, als --name WERT oder --name=WERT, je einmal):
          --server URL       ws://host:port/ws (oder PLAN_SERVER)
          --token TOKEN      Ihr geheimes Token (oder PLAN_TOKEN)
          --plan ID          der Plan (oder PLAN_PLAN)
          --language en|de   Beschriftungen, Monatsnamen und Meldungen auf Englisch oder Deutsch
          --ca-file PEM      auch diesen Zertifikaten für wss:// vertrauen (einem selbst signierten;
                             oder PLAN_CA_FILE)
          --idle-timeout S   ein stummer Server wird nach 2/5 von S angepingt und nach S Sekunden
                             aufgegeben (Standard 25): eine getrennte Leitung wird bemerkt

        """

    private static let overview = """
        plan — the ChronoSketch terminal client

        Usage:
          plan [options]                 the interactive client (list, timeline, resources, history)
          plan --version                 the client's version
          plan SUBCOMMAND [options]      one scriptable task

        Subcommands:
          show      the task list with kinds, dates, progress and derived summary values
          chart     the timeline as plain text
          watch     every server message as one JSON line
          propose   send one proposal and print the outcome
          export    the plan as the server exports it: JSON (with the bookings), MS Project XML,
                    CSV or iCalendar
          bookings  the bookings, one tab-separated line each
          feed      the plan's calendar address (or --revoke it)
          history   the plan's versions in words: who changed what, and when
          schedule  late dates, slack and the critical path

        \(connection)
        Interactive options:
          --title T          the heading (default: the plan's title)
          --start YYYY-MM-DD the timeline horizon's first day (default: today)
          --days N           the horizon's length in days (default: 90)
          --zoom Z           days per timeline column at the start: 1, 2, 4, 6 or 8 (default: 1)

        In the client press ? for every key. `plan SUBCOMMAND --help` explains a subcommand.

        """

    private static let germanOverview = """
        plan — der Terminal-Client von ChronoSketch

        Aufruf:
          plan [Optionen]                der interaktive Client (Liste, Zeitachse, Ressourcen, Verlauf)
          plan --version                 die Version des Clients
          plan UNTERBEFEHL [Optionen]    eine skriptfähige Aufgabe

        Unterbefehle:
          show      die Aufgabenliste mit Art, Terminen, Fortschritt und abgeleiteten Gruppenwerten
          chart     die Zeitachse als reiner Text
          watch     jede Nachricht des Servers als eine JSON-Zeile
          propose   einen Vorschlag senden und das Ergebnis ausgeben
          export    den Plan, wie der Server ihn exportiert: JSON (mit den Buchungen), MS-Project-XML,
                    CSV oder iCalendar
          bookings  die Buchungen, je eine Zeile mit Tabulatoren
          feed      die Kalenderadresse des Plans (oder --revoke: beenden)
          history   die Versionen des Plans in Worten: wer was wann geändert hat
          schedule  späteste Termine, Puffer und den kritischen Pfad

        \(germanConnection)
        Optionen des interaktiven Clients:
          --title T          die Überschrift (Vorgabe: der Titel des Plans)
          --start JJJJ-MM-TT der erste Tag der Zeitachse (Vorgabe: heute)
          --days N           die Länge der Zeitachse in Tagen (Vorgabe: 90)
          --zoom Z           Tage je Spalte der Zeitachse zu Beginn: 1, 2, 4, 6 oder 8 (Vorgabe: 1)

        Im Client zeigt ? alle Tasten. `plan UNTERBEFEHL --help` erklärt einen Unterbefehl.

        """

    private static let chart = """
        Usage: plan chart [--start D] [--days N] [--zoom Z] [--width W] [--version V] [--baseline NAME] [options]

        Prints the timeline as plain text (no escape codes): the pinned task names, three
        header rows (month, ISO week with its week-year, day or column range), bars with
        progress (█ done, ░ to do; summaries ▓/▒), milestones ◆ and dependency arrows.
          --start D   the first day (default today)
          --days N    the number of days (default 90)
          --zoom Z    days per column: 1, 2, 4, 6 or 8 (default 1)
          --width W   the line width (default: the terminal's, or the whole horizon)
          --version V the plan as it was at version V
          --baseline NAME  the baseline's bars (▁) and milestones (◇) drawn under the bars

        """ + connection

    private static let germanChart = """
        Aufruf: plan chart [--start D] [--days N] [--zoom Z] [--width W] [--version V] [--baseline NAME] [Optionen]

        Gibt die Zeitachse als reinen Text aus (ohne Steuerzeichen): die fixierten Aufgabennamen,
        drei Kopfzeilen (Monat, KW mit ihrem Wochenjahr, Tag oder Spaltenbereich), Balken mit
        Fortschritt (█ erledigt, ░ offen; Gruppen ▓/▒), Meilensteine ◆ und Abhängigkeitspfeile.
          --start D   der erste Tag (Vorgabe: heute)
          --days N    die Anzahl der Tage (Vorgabe: 90)
          --zoom Z    Tage je Spalte: 1, 2, 4, 6 oder 8 (Vorgabe: 1)
          --width W   die Zeilenbreite (Vorgabe: die des Terminals, sonst der ganze Zeitraum)
          --version V der Plan, wie er in Version V war
          --baseline NAME  die Balken (▁) und Meilensteine (◇) der Basislinie unter den Balken

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

    private static let history = """
        Usage: plan history [--limit N] [--before V] [options]

        Prints the plan's versions, newest first, one line each: the version, when it was
        confirmed (local time, with its offset from UTC), who proposed it and what it did in words; an undone version is
        marked with the version that undid it (↶ vN).
          --limit N   how many versions (1 to 500, default 50)
          --before V  only versions below V (default: up to the current one)

        """ + connection

    private static let germanHistory = """
        Aufruf: plan history [--limit N] [--before V] [Optionen]

        Gibt die Versionen des Plans aus, die neueste zuerst, je eine Zeile: die Version, wann
        sie bestätigt wurde (Ortszeit mit ihrem Abstand zu UTC), wer sie vorgeschlagen hat und was sie tat, in Worten; eine
        rückgängig gemachte Version trägt die Version, die sie rückgängig machte (↶ vN).
          --limit N   wie viele Versionen (1 bis 500, Vorgabe 50)
          --before V  nur Versionen unter V (Vorgabe: bis zur aktuellen)

        """ + germanConnection
}
