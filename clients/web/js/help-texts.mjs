// The help dialog's texts in each language (help.mjs puts the actions' keys between `keys` and
// `more`). Apart from the language modules: only the help needs them, and it is loaded after the
// first render.

/** The help's texts by language. */
export const HELP_TEXTS = {
  en: {
    keys: [
      ['v', 'switch view (tasks, resources, history)'], ['↑ ↓ j k', 'move the selection; PgUp PgDn Home End'],
      ['Space ← →', 'collapse/expand a group'], ['[ ]', 'timeline: previous/next half width'], ['t', 'today'],
      ['+ -', 'zoom: 1–8 days a column, months, quarters, years (pinch, Ctrl+wheel)'], ['f', 'zoom to fit the whole plan'], ['Enter', 'show the available actions'],
      ['Alt+↑ Alt+↓', 'move before the previous / after the next sibling'],
      ['Shift+← →', 'move the selected bar or booking by a day (a working day where the plan has a calendar); releasing Shift proposes it, Esc cancels'],
      ['Shift+Alt+← →', 'the same for its end'],
      ['Drag', 'a bar or diamond to move it, an end of a bar to change its start or end (touch: hold, then drag); Esc cancels'],
      ['z  Z (Ctrl+Z, Ctrl+Y)', 'undo / redo your last change'],
      ['b  B', 'set or remove a baseline / cycle its shadow'], ['S', 'scheduling settings (owners)'],
      ['/', 'search titles and ids (Esc clears)'], ['n N', 'next / previous match (in the search box: Enter, Shift+Enter)'],
      ['E', 'export: MS Project, CSV, iCalendar, JSON, the chart as PNG'],
      ['Ctrl+P', 'print the whole plan'], ['← → on a divider', 'resize the list or a column'],
    ],
    resources: 'Resources:',
    more: [
      ['n', 'next entry of the resource'], ['Space', 'collapse/expand a resource (collapsed: not loaded)'],
      ['R', 'retry loading'], ['History:', '↑ ↓ select, Enter show, z undo'],
      ['Forms', 'Tab field, Enter saves, Esc closes'],
      ['Task picker', 'type part of a title or id; ↓ ↑ choose, Enter picks, Esc closes the list'],
    ],
  },
  de: {
    keys: [
      ['v', 'Ansicht wechseln (Aufgaben, Ressourcen, Verlauf)'], ['↑ ↓ j k', 'Auswahl bewegen; Bild↑ Bild↓ Pos1 Ende'],
      ['Leertaste ← →', 'Gruppe auf-/zuklappen'], ['[ ]', 'Zeitachse: vorherige/nächste halbe Breite'], ['t', 'Heute'],
      ['+ -', 'Zoom: 1–8 Tage je Spalte, Monate, Quartale, Jahre (zwei Finger, Strg+Mausrad)'], ['f', 'den ganzen Plan einpassen'], ['Enter', 'verfügbare Aktionen anzeigen'],
      ['Alt+↑ Alt+↓', 'vor das vorige / hinter das nächste Geschwister'],
      ['Umschalt+← →', 'gewählten Balken oder Eintrag um einen Tag verschieben (um einen Arbeitstag, wenn der Plan einen Kalender hat); Loslassen von Umschalt schlägt es vor, Esc bricht ab'],
      ['Umschalt+Alt+← →', 'dasselbe für sein Ende'],
      ['Ziehen', 'einen Balken oder eine Raute, um sie zu verschieben, ein Balkenende, um Anfang oder Ende zu ändern (Touch: halten, dann ziehen); Esc bricht ab'],
      ['z  Z (Strg+Z, Strg+Y)', 'eigene letzte Änderung rückgängig / wiederholen'],
      ['b  B', 'Basislinie setzen oder entfernen / Schatten wechseln'], ['S', 'Planungseinstellungen (Eigentümer)'],
      ['/', 'Titel und Kennungen suchen (Esc leert)'], ['n N', 'nächster / voriger Treffer (im Suchfeld: Enter, Umschalt+Enter)'],
      ['E', 'Exportieren: MS Project, CSV, iCalendar, JSON, das Diagramm als PNG'],
      ['Strg+P', 'den ganzen Plan drucken'], ['← → auf einem Trenner', 'Liste oder Spalte breiter / schmaler'],
    ],
    resources: 'Ressourcen:',
    more: [
      ['n', 'nächster Eintrag der Ressource'], ['Leertaste', 'Ressource zu-/aufklappen (zugeklappt: nicht geladen)'],
      ['R', 'Laden erneut versuchen'], ['Verlauf:', '↑ ↓ wählen, Enter anzeigen, z rückgängig'],
      ['Formulare', 'Tab Feld, Enter Speichern, Esc Schließen'],
      ['Aufgabenauswahl', 'Teil eines Titels oder einer Kennung tippen; ↓ ↑ wählen, Enter übernimmt, Esc schließt die Liste'],
    ],
  },
};
