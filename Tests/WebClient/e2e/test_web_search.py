"""Searching the task list by title (issue 30, item 8), in headless Chromium against a real
plan-server: `/` and typing highlight the matches (case and accents ignored) and count them, n / N
and Enter / Shift+Enter jump (opening a collapsed group), the filter shows the matches and their
ancestors, Escape clears; in English and German, with the help listing the keys."""

import os
import sys

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.dirname(__file__))
from harness import BrowserTests, sign_in, wait, rows, row, shot
from test_web import press, select_row

CAFE = {'id': 'cafe', 'title': 'Café planning', 'parentID': 'backend', 'kind': 'activity', 'progress': 0}
ALL = ['Design', 'User research', 'Specification', 'Design review', 'Implementation', 'Backend', 'Storage layer',
       'Plan server', 'Café planning', 'Terminal client', 'Documentation', 'Release', 'Beta', 'Launch']


def titles(driver):
    return [cells[0].lstrip('▾▸').strip() for cells in rows(driver)]


def marked(driver, kind='match'):
    """The titles of the rows marked as matches (or as the current one, 'current'), in order."""
    return driver.execute_script('''
        return [...document.querySelectorAll(`#tasks .row.${arguments[0]}`)]
          .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
          .map((row) => row.querySelector('.label').textContent);''', kind)


def selected(driver):
    found = driver.find_elements(By.CSS_SELECTOR, '#tasks .row[aria-selected="true"] .label')
    return found[0].text if found else None


def count(driver):
    return driver.find_element(By.ID, 'search-count').text


def focused(driver):
    return driver.switch_to.active_element.get_attribute('id')


def search_for(driver, text):
    """`/` (the cursor goes to the search box, its text selected), then `text` typed over it."""
    press(driver, '/')
    wait(driver, lambda d: focused(d) == 'search', 'the search box did not take the cursor')
    press(driver, text)


class SearchTests(BrowserTests):
    """An English browser (alice, the owner) and a German one (bob, an editor)."""
    languages = ('en-US', 'de-DE')

    def test_search_highlights_counts_jumps_filters_and_clears(self):
        plan = self.people.plan(extra_tasks=[CAFE])
        sign_in(self.a, self.server, self.people.tokens[self.people.alice], plan)
        # Backend collapsed: its matches are counted, and a jump opens it.
        select_row(self.a, 'Backend')
        press(self.a, Keys.ARROW_LEFT)
        wait(self.a, lambda d: row(d, 'Storage layer') is None)
        select_row(self.a, 'Design')
        search_for(self.a, 'LA')
        wait(self.a, lambda d: count(d) == '1 of 4', 'no count')
        self.assertEqual(selected(self.a), 'Storage layer', 'the first match from the selection, its group opened')
        self.assertEqual(marked(self.a), ['Storage layer', 'Plan server', 'Café planning', 'Launch'])
        self.assertEqual(marked(self.a, 'current'), ['Storage layer'])
        self.assertEqual(titles(self.a), ALL, 'without the filter every row stays')
        press(self.a, Keys.ENTER)
        wait(self.a, lambda d: count(d) == '2 of 4' and selected(d) == 'Plan server')
        ActionChains(self.a).key_down(Keys.SHIFT).send_keys(Keys.ENTER).key_up(Keys.SHIFT).perform()
        wait(self.a, lambda d: count(d) == '1 of 4' and selected(d) == 'Storage layer')
        # n / N in the list go on from the selected row, wrapping around.
        select_row(self.a, 'Plan server')
        press(self.a, 'n')
        wait(self.a, lambda d: count(d) == '3 of 4' and selected(d) == 'Café planning')
        press(self.a, 'n')
        wait(self.a, lambda d: count(d) == '4 of 4' and selected(d) == 'Launch')
        press(self.a, 'n')
        wait(self.a, lambda d: count(d) == '1 of 4' and selected(d) == 'Storage layer')
        press(self.a, 'N')
        wait(self.a, lambda d: count(d) == '4 of 4' and selected(d) == 'Launch')
        # The filter: the matches and their ancestors only.
        self.a.find_element(By.ID, 'search-filter').click()
        wait(self.a, lambda d: titles(d) == ['Implementation', 'Backend', 'Storage layer', 'Plan server', 'Café planning',
                                             'Release', 'Launch'], 'not filtered')
        self.assertEqual(self.a.find_element(By.ID, 'search-filter').get_attribute('aria-pressed'), 'true')
        self.assertEqual(selected(self.a), 'Launch')
        shot(self.a, 'search-filter')
        # Accents are ignored; the filter follows the query.
        search_for(self.a, 'cafe')
        wait(self.a, lambda d: titles(d) == ['Implementation', 'Backend', 'Café planning'] and count(d) == '1 of 1')
        self.assertEqual(selected(self.a), 'Café planning')
        search_for(self.a, 'zzz')
        wait(self.a, lambda d: count(d) == 'no match' and titles(d) == [])
        self.assertIn('none', self.a.find_element(By.ID, 'search').get_attribute('class'))
        # Escape in the box clears it all and gives the cursor back to the list.
        press(self.a, Keys.ESCAPE)
        wait(self.a, lambda d: titles(d) == ALL and count(d) == '', 'not cleared')
        self.assertEqual(self.a.find_element(By.ID, 'search').get_attribute('value'), '')
        self.assertEqual(marked(self.a), [])
        self.assertFalse(self.a.find_element(By.ID, 'search-filter').is_displayed())
        self.assertEqual(focused(self.a), 'tasks')
        # Escape in the list clears a search too; the list's keys are its own again.
        search_for(self.a, 'beta')
        wait(self.a, lambda d: count(d) == '1 of 1' and selected(d) == 'Beta')
        select_row(self.a, 'Design')
        press(self.a, Keys.ESCAPE)
        wait(self.a, lambda d: count(d) == '' and marked(d) == [])
        press(self.a, 'n', Keys.ARROW_DOWN)
        wait(self.a, lambda d: selected(d) == 'User research', 'n without a search does nothing, ↓ still moves')

    def test_search_and_its_keys_in_german(self):
        plan = self.people.plan(extra_tasks=[CAFE])
        sign_in(self.b, self.server, self.people.tokens[self.people.bob], plan)
        self.assertEqual(self.b.find_element(By.ID, 'search').get_attribute('placeholder'), 'Suchen … (/)')
        # The toolbar's field works as / does.
        self.b.find_element(By.ID, 'search').click()
        press(self.b, 'PLÄN')
        wait(self.b, lambda d: count(d) == '1 von 2', 'no count')
        self.assertEqual(marked(self.b), ['Plan server', 'Café planning'])
        self.assertEqual(self.b.find_element(By.ID, 'search-filter').text, 'Filtern')
        press(self.b, Keys.TAB, Keys.SPACE)
        wait(self.b, lambda d: titles(d) == ['Implementation', 'Backend', 'Plan server', 'Café planning'], 'not filtered')
        search_for(self.b, 'nichts')
        wait(self.b, lambda d: count(d) == 'kein Treffer')
        press(self.b, Keys.ESCAPE)
        wait(self.b, lambda d: count(d) == '' and len(titles(d)) == len(ALL))
        press(self.b, '?')
        keys = wait(self.b, lambda d: d.find_element(By.ID, 'help-dialog').get_attribute('open') is not None and
                    [dt.text for dt in d.find_elements(By.CSS_SELECTOR, '#help-keys dt')])
        meanings = [dd.text for dd in self.b.find_elements(By.CSS_SELECTOR, '#help-keys dd')]
        for key, meaning in [('/', 'Titel und Kennungen suchen (Esc leert)'),
                             ('n N', 'nächster / voriger Treffer (im Suchfeld: Enter, Umschalt+Enter)'),
                             ('E', 'Exportieren: MS Project, CSV, iCalendar, JSON, das Diagramm als PNG')]:
            self.assertEqual(meanings[keys.index(key)], meaning)
        self.b.find_element(By.ID, 'help-close').click()
