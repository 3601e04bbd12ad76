/// The help of `plan export`, `plan bookings` and `plan feed`, in English and German.
extension PlanOptions {
    static let export = """
        Usage: plan export [--format json|msproject|csv|ics] [--version V] [options]

        Prints the plan as the server exports it (GET /plans/ID/export, the file the web client
        downloads), asked for with your token over HTTP on the host and port of --server (https
        for wss://, trusting --ca-file). The document alone goes to standard output, byte for
        byte what `plan-server plan export` prints; what a format could not hold goes to
        standard error, one line each: "warning: CODE: text".
          --format F  json (default: the plan file with its id, version, tasks, dependencies,
                      resources, bookings with their taskID, assignments, baselines),
                      msproject (MS Project XML), csv (one row per task) or ics (iCalendar)
          --version V the plan as it was at version V
        Exit status: 0 done, 1 the server said no (401 token, 404 plan or version) or could not
        be reached, 2 a command line that cannot run.

        """ + connection

    static let germanExport = """
        Aufruf: plan export [--format json|msproject|csv|ics] [--version V] [Optionen]

        Gibt den Plan aus, wie der Server ihn exportiert (GET /plans/ID/export, die Datei, die
        der Web-Client herunterlädt), mit Ihrem Token per HTTP vom Host und Port von --server
        geholt (https bei wss://, --ca-file gilt). Auf die Standardausgabe kommt nur das Dokument,
        Byte für Byte wie bei `plan-server plan export`; was ein Format nicht fassen konnte, kommt
        auf die Standardfehlerausgabe, je eine Zeile: "warning: CODE: Text".
          --format F  json (Vorgabe: die Plandatei mit id, version, Aufgaben, Abhängigkeiten,
                      Ressourcen, Buchungen mit ihrer taskID, Zuordnungen, Basislinien),
                      msproject (MS-Project-XML), csv (eine Zeile je Aufgabe) oder ics (iCalendar)
          --version V der Plan, wie er in Version V war
        Rückgabewert: 0 erledigt, 1 der Server lehnte ab (401 Token, 404 Plan oder Version) oder
        war nicht erreichbar, 2 eine Befehlszeile, die nicht ausführbar ist.

        """ + germanConnection

    static let bookings = """
        Usage: plan bookings [--from D] [--to D] [--resource ID[,ID…]] [--version V] [options]

        Prints the plan's bookings (resource timeline entries) from the server's JSON export,
        ordered by start, one line each with six tab-separated fields:
          entry id, title, start, end (YYYY-MM-DDTHH:MM, the end exclusive),
          resource ids (comma-separated, empty when unassigned), task id (empty when none)
        No heading; a tab or line break in a title is written as a space.
          --from D        only bookings that reach into day D or later
          --to D          only bookings that begin on day D or earlier
          --resource IDs  only bookings assigned to one of these resources
          --version V     the bookings of version V
        Exit status: 0 done (also for none), 1 refused, unreachable or an unknown resource.

        """ + connection

    static let germanBookings = """
        Aufruf: plan bookings [--from D] [--to D] [--resource ID[,ID…]] [--version V] [Optionen]

        Gibt die Buchungen des Plans (Einträge der Ressourcen-Zeitachse) aus dem JSON-Export des
        Servers aus, nach Beginn geordnet, je eine Zeile mit sechs durch Tabulatoren getrennten Feldern:
          Eintrags-ID, Titel, Beginn, Ende (JJJJ-MM-TTTHH:MM, das Ende exklusiv),
          Ressourcen-IDs (durch Kommas getrennt, leer ohne Zuordnung), Aufgaben-ID (leer ohne)
        Keine Kopfzeile; ein Tabulator oder Zeilenumbruch in einem Titel wird als Leerzeichen geschrieben.
          --from D        nur Buchungen, die in den Tag D oder später reichen
          --to D          nur Buchungen, die am Tag D oder früher beginnen
          --resource IDs  nur Buchungen, die einer dieser Ressourcen zugeordnet sind
          --version V     die Buchungen der Version V
        Rückgabewert: 0 erledigt (auch ohne Buchung), 1 abgelehnt, nicht erreichbar oder eine
        unbekannte Ressource.

        """ + germanConnection

    static let feed = """
        Usage: plan feed [--revoke] [options]

        Prints the full address of your calendar feed of the plan, such as
          http://host:port/plans/ID/calendar.ics?key=KEY
        (https for wss://): calendar applications subscribe to it without a token and see the
        dated tasks. It is the same on every asking; anyone with it can read the plan's calendar,
        so share it like a password.
          --revoke    stop the address now instead (the next asking gives a new one)
        Exit status: 0 done, 1 refused (no role on the plan) or the connection ended.

        """ + connection

    static let germanFeed = """
        Aufruf: plan feed [--revoke] [Optionen]

        Gibt die vollständige Adresse Ihres Kalender-Abonnements des Plans aus, etwa
          http://host:port/plans/ID/calendar.ics?key=SCHLÜSSEL
        (https bei wss://): Kalender-Apps abonnieren sie ohne Token und sehen die datierten
        Aufgaben. Sie ist bei jeder Anfrage dieselbe; wer sie hat, kann den Kalender des Plans
        lesen: wie ein Passwort weitergeben.
          --revoke    die Adresse stattdessen sofort beenden (die nächste Anfrage erhält eine neue)
        Rückgabewert: 0 erledigt, 1 abgelehnt (keine Rolle im Plan) oder Verbindung beendet.

        """ + germanConnection
}
