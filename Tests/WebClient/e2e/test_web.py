"""The web client as a person uses it (issue 16), in headless Chromium against a real plan-server
and PostgreSQL: sign in, open a plan, edit and see another browser update, stale edits, drag to
reorder, add and link, XSS titles, German labels (the resources view: test_web_resources.py),
no console errors; screenshots of the list, the timeline at zoom 1 and 8 and the resources."""

import os
import sys
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.dirname(__file__))
from harness import BrowserTests, Server, People, browser, sign_in, wait, rows, row, cells, console_errors, shot, export, history

XSS = '<img src=x onerror=alert(1)>'


def press(driver, *keys):
    ActionChains(driver).send_keys(*keys).perform()


def select_row(driver, title):
    # A click on a node the page has just redrawn is stale: the wait tries again.
    wait(driver, lambda d: d.execute_script('return arguments[0].querySelector(".label")', row(d, title)).click() or True)
    wait(driver, lambda d: row(d, title).get_attribute('aria-selected') == 'true', f'{title} not selected')


def open_form(driver, key):
    press(driver, key)
    return wait(driver, lambda d: d.find_element(By.ID, 'form-dialog').get_attribute('open') is not None and
                d.find_element(By.ID, 'form-dialog'))


def fill(driver, name, value):
    field = driver.find_element(By.CSS_SELECTOR, f'#form-fields [name="{name}"]')
    if field.tag_name == 'select':
        driver.execute_script('arguments[0].value = arguments[1]', field, value)
    elif field.get_attribute('type') == 'hidden':  # a task picker (combobox.mjs): typed, then Enter picks
        box = driver.find_element(By.CSS_SELECTOR, f'#form-fields .combobox:has([name="{name}"]) [role=combobox]')
        box.clear()
        box.send_keys(value)
        wait(driver, lambda d: d.execute_script(
            'return document.getElementById(arguments[0].getAttribute("aria-activedescendant"))?.dataset.id', box) == value)
        box.send_keys(Keys.ENTER)
        wait(driver, lambda d: field.get_attribute('value') == value)
    else:
        field.clear()
        field.send_keys(value)


def dialog_closed(driver):
    return driver.find_element(By.ID, 'form-dialog').get_attribute('open') is None


def history_cells(driver, version):
    return driver.execute_script('''
        const row = document.querySelector(`#history tr[data-version="${arguments[0]}"]`);
        return row ? [...row.children].map((cell) => cell.textContent) : [];''', version)


def progress_of(driver, title):
    found = cells(driver, title)
    return found[3] if found else None


class WebClientTests(BrowserTests):
    """Two English browsers on one server."""

    def open(self, driver, person, plan):
        sign_in(driver, self.server, self.people.tokens[person], plan)

    def test_sign_in_lists_plans_and_opens_one_with_the_chart(self):
        plan = self.people.plan(extra_tasks=[{'id': 'xss', 'title': XSS, 'kind': 'activity', 'progress': 0}])
        sign_in(self.a, self.server, self.people.tokens[self.people.alice])
        button = wait(self.a, lambda d: d.find_element(By.CSS_SELECTOR, f'#plans button[data-plan="{plan}"]'))
        self.assertNotIn('token', self.a.current_url)
        self.assertIsNotNone(self.a.execute_script('return sessionStorage.getItem("chronosketch.token")'))
        button.click()
        wait(self.a, lambda d: row(d, 'Storage layer'))
        self.assertIn(f'plan={plan}', self.a.current_url)
        self.assertEqual(self.a.find_element(By.ID, 'heading').text, 'ChronoSketch launch')
        wait(self.a, lambda d: 'connected' in d.find_element(By.ID, 'connection').text)
        wait(self.a, lambda d: self.people.alice in d.find_element(By.ID, 'presence').text)
        listed = rows(self.a)
        self.assertEqual([r[0].strip() for r in listed[:4]], ['▾Design', 'User research', 'Specification', 'Design review'])
        self.assertEqual(listed[1][1:], ['Activity', '2026-09-07 – 2026-09-11', '100 %'])
        self.assertEqual(listed[3][2], '2026-09-18')
        self.assertEqual(cells(self.a, 'Documentation')[2], 'Unscheduled')
        header = [t.text for t in self.a.find_elements(By.CSS_SELECTOR, '#tasks .chart-head text')]
        self.assertIn('September 2026', header)
        self.assertIn('Week 37 2026', header)
        self.assertIn('Unscheduled', [t.text for t in self.a.find_elements(By.CSS_SELECTOR, '#tasks text.unscheduled')])
        self.assertGreaterEqual(len(self.a.find_elements(By.CSS_SELECTOR, '#tasks path.milestone')), 2)
        self.assertGreaterEqual(len(self.a.find_elements(By.CSS_SELECTOR, '#tasks path.arrow')), 3)
        # The XSS title is shown as text: no element made of it, no alert.
        self.assertIsNotNone(row(self.a, XSS))
        self.assertEqual(self.a.find_elements(By.CSS_SELECTOR, '#tasks img'), [])
        self.assertEqual(self.a.execute_script('return document.querySelectorAll("img").length'), 0)
        shot(self.a, 'list-and-timeline-zoom1')
        # Previous is disabled at the horizon's start; Next moves half the chart width.
        wait(self.a, lambda d: d.find_element(By.ID, 'previous').get_attribute('disabled'))
        press(self.a, ']')
        wait(self.a, lambda d: not d.find_element(By.ID, 'previous').get_attribute('disabled'))
        self.assertGreater(self.a.execute_script('return document.getElementById("tasks").scrollLeft'), 0)
        press(self.a, '[')
        wait(self.a, lambda d: d.execute_script('return document.getElementById("tasks").scrollLeft') == 0)
        press(self.a, '-', '-', '-', '-')
        wait(self.a, lambda d: d.find_element(By.ID, 'zoom-label').text == 'zoom 8 d')
        wait(self.a, lambda d: 'Oktober 2026' not in d.page_source and any(
            t.text == 'October 2026' for t in d.find_elements(By.CSS_SELECTOR, '#tasks .chart-head text')))
        shot(self.a, 'timeline-zoom8')
        self.a.find_element(By.CSS_SELECTOR, '#tasks .list-body').screenshot(os.path.join(
            os.environ.get('WEB_SHOTS', '.build/web-screenshots'), 'list.png'))
        # Back to the plans and into the plan again: one chart, not two.
        self.a.find_element(By.ID, 'to-plans').click()
        wait(self.a, lambda d: d.find_element(By.CSS_SELECTOR, f'#plans button[data-plan="{plan}"]')).click()
        wait(self.a, lambda d: row(d, 'Storage layer'))
        self.assertEqual(len(self.a.find_elements(By.CSS_SELECTOR, '#tasks .stage')), 1)
        self.assertEqual(self.a.find_element(By.ID, 'zoom-label').text, 'zoom 1 d')

    def test_progress_edit_appears_in_a_second_browser_and_a_stale_edit_is_rejected(self):
        plan = self.people.plan()
        self.open(self.a, self.people.alice, plan)
        self.open(self.b, self.people.bob, plan)
        wait(self.a, lambda d: d.find_element(By.ID, 'presence').text.startswith('2 here'))
        select_row(self.a, 'Specification')
        open_form(self.a, 'p')
        fill(self.a, 'progress', '75\n')
        wait(self.a, dialog_closed, 'the form did not close on ack')
        self.assertEqual(progress_of(self.a, 'Specification'), '75 %')
        wait(self.b, lambda d: progress_of(d, 'Specification') == '75 %', 'the second browser did not update')
        wait(self.a, lambda d: d.find_element(By.ID, 'status').text == 'Saved.')
        # Bob opens the same form, Alice changes the value, Bob's save is stale.
        select_row(self.b, 'Specification')
        open_form(self.b, 'p')
        select_row(self.a, 'Specification')
        open_form(self.a, 'p')
        fill(self.a, 'progress', '80\n')
        wait(self.b, lambda d: progress_of(d, 'Specification') == '80 %')
        fill(self.b, 'progress', '33')
        self.b.find_element(By.ID, 'form-save').click()
        error = wait(self.b, lambda d: d.find_element(By.ID, 'form-error').text)
        self.assertIn('Rejected: The task was changed or removed in the meantime', error)
        self.assertFalse(dialog_closed(self.b), 'the form stays open')
        self.assertEqual(self.b.find_element(By.CSS_SELECTOR, '#form-fields [name="progress"]').get_attribute('value'), '33')
        self.assertEqual(progress_of(self.b, 'Specification'), '80 %', 'nothing is drawn that was not confirmed')
        press(self.b, Keys.ESCAPE)
        wait(self.b, dialog_closed)
        spec = next(t for t in export(plan)['tasks'] if t['id'] == 'spec')
        self.assertEqual(spec['progress'], 80)

    def test_drag_reorder_in_the_list(self):
        plan = self.people.plan()
        self.open(self.a, self.people.alice, plan)
        self.open(self.b, self.people.bob, plan)
        source = row(self.a, 'Design review')
        target = row(self.a, 'User research')
        ActionChains(self.a).click_and_hold(source).move_to_element_with_offset(target, 0, -3).pause(0.05) \
            .move_to_element_with_offset(target, 0, -6).release().perform()
        order = lambda d: [r[0].strip() for r in rows(d)[1:4]]
        wait(self.a, lambda d: order(d) == ['Design review', 'User research', 'Specification'], 'not reordered')
        wait(self.b, lambda d: order(d) == ['Design review', 'User research', 'Specification'])
        ids = [t['id'] for t in export(plan)['tasks']]
        self.assertLess(ids.index('design-review'), ids.index('research'))

    def test_add_a_task_and_link_it_by_dragging_from_a_bar_end(self):
        plan = self.people.plan()
        self.open(self.a, self.people.alice, plan)
        select_row(self.a, 'Terminal client')
        open_form(self.a, 'a')
        fill(self.a, 'title', 'QA pass')
        fill(self.a, 'start', '2026-10-26')
        fill(self.a, 'days', '4')
        fill(self.a, 'parent', 'implementation')
        self.a.find_element(By.ID, 'form-save').click()
        wait(self.a, dialog_closed)
        wait(self.a, lambda d: row(d, 'QA pass'))
        self.assertEqual(cells(self.a, 'QA pass')[2], '2026-10-26 – 2026-10-29')
        press(self.a, '-', '-', '-')  # six days per column: every bar in view
        wait(self.a, lambda d: d.find_element(By.ID, 'zoom-label').text == 'zoom 6 d')
        select_row(self.a, 'Terminal client')
        arrows = len(self.a.find_elements(By.CSS_SELECTOR, '#tasks path.arrow'))
        handle = wait(self.a, lambda d: d.find_element(By.CSS_SELECTOR, '#tasks circle.handle.selected'))
        qa = row(self.a, 'QA pass')
        dy = qa.location['y'] + qa.size['height'] / 2 - (handle.location['y'] + handle.size['height'] / 2)
        ActionChains(self.a).click_and_hold(handle).move_by_offset(20, int(dy / 2)).pause(0.05) \
            .move_by_offset(0, int(dy / 2)).release().perform()
        wait(self.a, lambda d: len(d.find_elements(By.CSS_SELECTOR, '#tasks path.arrow')) == arrows + 1, 'no new arrow')
        added = next(t for t in export(plan)['tasks'] if t['title'] == 'QA pass')
        # The server writes every dependency's type and lag (a link from the web client is finish-to-start, 0).
        self.assertIn(
            {'predecessorID': 'client', 'successorID': added['id'], 'type': 'finish-to-start', 'lag': 0},
            export(plan)['dependencies'])
        self.assertEqual(added['parentID'], 'implementation')

    def test_undo_redo_history_and_baseline_shadow(self):
        plan = self.people.plan()
        self.open(self.a, self.people.alice, plan)
        select_row(self.a, 'Storage layer')
        open_form(self.a, 'p')
        fill(self.a, 'progress', '55\n')
        wait(self.a, lambda d: progress_of(d, 'Storage layer') == '55 %')
        wait(self.a, lambda d: d.find_element(By.ID, 'undo').is_enabled())
        press(self.a, 'z')
        wait(self.a, lambda d: progress_of(d, 'Storage layer') == '30 %', 'not undone')
        wait(self.a, lambda d: d.find_element(By.ID, 'redo').is_enabled())
        self.a.find_element(By.ID, 'redo').click()
        wait(self.a, lambda d: progress_of(d, 'Storage layer') == '55 %', 'not redone')
        wait(self.a, lambda d: d.find_element(By.ID, 'status').text == 'Redid v1 (now v3).', 'a redo says so')
        entries = history(plan)
        self.assertEqual([e['mutation'].get('undoes') for e in entries[-2:]], [1, 2])
        press(self.a, 'b')
        wait(self.a, lambda d: d.find_element(By.CSS_SELECTOR, '#form-fields [name="name"]'))
        fill(self.a, 'name', 'Plan A')
        fill(self.a, 'version', '0')
        self.a.find_element(By.ID, 'form-save').click()
        wait(self.a, dialog_closed)
        wait(self.a, lambda d: 'Plan A' in d.find_element(By.ID, 'baseline').text)
        press(self.a, 'B')
        wait(self.a, lambda d: len(d.find_elements(By.CSS_SELECTOR, '#tasks rect.baseline')) >= 5, 'no shadow')
        shot(self.a, 'baseline-shadow')
        press(self.a, 'v', 'v')
        wait(self.a, lambda d: len(d.find_elements(By.CSS_SELECTOR, '#history tbody tr')) == 4)
        # In words, as the terminal says it (v3 undid the undo v2: "redid v1"); v2 (the undo) stands undone by
        # v3 (the redo): struck and marked.
        change = lambda version: history_cells(self.a, version)[3]
        wait(self.a, lambda d: change(3) == 'redid v1: set the progress of “Storage layer” to 55 %', 'the ops were not read')
        self.assertEqual(change(2), 'undid v1: set the progress of “Storage layer” to 30 %')
        self.assertEqual(change(1), 'set the progress of “Storage layer” to 55 %')
        self.assertEqual(change(4), 'set the baseline “Plan A” (v0)')
        self.assertRegex(history_cells(self.a, 4)[1], r'^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$', 'the time as the page writes dates')
        marked = self.a.find_element(By.CSS_SELECTOR, '#history tr[data-version="2"]')
        self.assertEqual(marked.get_attribute('class'), 'undone')
        self.assertEqual(marked.find_element(By.CSS_SELECTOR, '.undone-by').text, '↶ v3')
        self.assertEqual(self.a.find_elements(By.CSS_SELECTOR, '#history tr[data-version="1"] .undone-by'), [])
        shot(self.a, 'history')
        # A past version, read only: after v2 (the undo) the progress was 30 % again.
        self.a.find_element(By.CSS_SELECTOR, '#history tr[data-version="2"] button').click()
        wait(self.a, lambda d: d.find_element(By.ID, 'historical-text').text == 'Showing version 2 (read only)')
        wait(self.a, lambda d: progress_of(d, 'Storage layer') == '30 %')
        self.assertTrue(self.a.find_element(By.ID, 'undo').get_attribute('disabled'), 'no edits of a past version')
        press(self.a, Keys.ESCAPE)
        wait(self.a, lambda d: d.find_element(By.ID, 'historical').get_attribute('hidden') is not None)
        wait(self.a, lambda d: progress_of(d, 'Storage layer') == '55 %')

    def test_a_stale_undo_says_who_changed_it_since(self):
        plan = self.people.plan()
        self.open(self.a, self.people.alice, plan)
        self.open(self.b, self.people.bob, plan)
        select_row(self.a, 'Specification')
        open_form(self.a, 'p')
        fill(self.a, 'progress', '70\n')
        wait(self.b, lambda d: progress_of(d, 'Specification') == '70 %')
        select_row(self.b, 'Specification')
        open_form(self.b, 'p')
        fill(self.b, 'progress', '20\n')
        wait(self.a, lambda d: progress_of(d, 'Specification') == '20 %')
        press(self.a, 'z')
        wait(self.a, lambda d: d.find_element(By.ID, 'status').text
             == f'v1 not undone: changed since by {self.people.bob} (v2).', 'the reason does not name bob')
        self.assertIn('error', self.a.find_element(By.ID, 'status').get_attribute('class'))
        self.assertEqual(progress_of(self.a, 'Specification'), '20 %')
        self.assertEqual(len(history(plan)), 2, 'nothing undone')
        # Bob's own undo is not stale: it is applied.
        press(self.b, 'z')
        wait(self.b, lambda d: d.find_element(By.ID, 'status').text == 'Undid v2 (now v3).')
        wait(self.a, lambda d: progress_of(d, 'Specification') == '70 %')

    def test_keyboard_only_refused_token_and_unknown_plan(self):
        self.a.get(f'{self.server.url}/')
        self.a.execute_script('sessionStorage.clear(); localStorage.clear();')
        self.a.get(f'{self.server.url}/?plan=nope-{self.people.alice}')
        wait(self.a, lambda d: d.find_element(By.ID, 'token-input')).send_keys('not-a-token\n')
        wait(self.a, lambda d: d.find_element(By.ID, 'sign-in-error').text.startswith('The token was not accepted.'))
        self.assertIsNone(self.a.execute_script('return sessionStorage.getItem("chronosketch.token")'))
        self.a.find_element(By.ID, 'token-input').send_keys(self.people.tokens[self.people.alice] + '\n')
        wait(self.a, lambda d: 'is visible to you' in d.find_element(By.ID, 'status').text, 'unknown plan not reported')
        self.assertFalse(self.a.find_element(By.ID, 'plan-list').get_attribute('hidden'))
        plan = self.people.plan()
        self.open(self.a, self.people.alice, plan)
        press(self.a, Keys.HOME, Keys.ARROW_LEFT)
        wait(self.a, lambda d: row(d, 'User research') is None, 'Design did not collapse')
        press(self.a, Keys.ARROW_RIGHT, Keys.ARROW_DOWN)
        wait(self.a, lambda d: row(d, 'User research') and row(d, 'User research').get_attribute('aria-selected') == 'true')
        press(self.a, Keys.ENTER)
        menu = wait(self.a, lambda d: not d.find_element(By.ID, 'menu').get_attribute('hidden') and d.find_element(By.ID, 'menu'))
        self.assertEqual([b.text.split()[0] for b in menu.find_elements(By.TAG_NAME, 'button')][:4], ['e', 'd', 'u', 'p'])
        press(self.a, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ENTER)
        wait(self.a, lambda d: d.find_element(By.ID, 'form-heading').text == 'Progress: User research')
        fill(self.a, 'progress', '90\n')
        wait(self.a, lambda d: progress_of(d, 'User research') == '90 %')
        self.assertEqual(self.a.switch_to.active_element.get_attribute('id'), 'tasks', 'focus back on the chart')

    def test_a_viewer_sees_live_changes_and_is_offered_no_edits(self):
        plan = self.people.plan()
        self.open(self.a, self.people.carol, plan)
        self.open(self.b, self.people.bob, plan)
        wait(self.a, lambda d: d.find_element(By.ID, 'add-task').get_attribute('disabled'), 'a viewer may add')
        select_row(self.a, 'Specification')
        press(self.a, 'p')
        wait(self.a, lambda d: d.find_element(By.ID, 'status').text == 'Rejected: You may not edit this plan.')
        self.assertTrue(dialog_closed(self.a))
        select_row(self.b, 'Specification')
        open_form(self.b, 'p')
        fill(self.b, 'progress', '5\n')
        wait(self.a, lambda d: progress_of(d, 'Specification') == '5 %', 'the viewer did not see the change')

    def test_german_labels_and_the_language_switch(self):
        german = browser('de-DE')
        try:
            plan = self.people.plan()
            sign_in(german, self.server, self.people.tokens[self.people.alice], plan)
            wait(german, lambda d: d.find_element(By.ID, 'connection').text == 'verbunden')
            self.assertEqual(german.find_element(By.CSS_SELECTOR, '#tasks .corner').text.split('\n')[:3],
                             ['Aufgabe', 'Art', 'Termine'])
            self.assertEqual(cells(german, 'Documentation')[1:3], ['Vorgang', 'Nicht geplant'])
            self.assertEqual(cells(german, 'User research')[2], '07.09.2026 – 11.09.2026')
            header = [t.text for t in german.find_elements(By.CSS_SELECTOR, '#tasks .chart-head text')]
            self.assertIn('KW 37 2026', header)
            self.assertIn('September 2026', header)
            self.assertEqual(german.find_element(By.ID, 'tab-resources').text, 'Ressourcen')
            shot(german, 'list-and-timeline-de')
            german.find_element(By.ID, 'language').click()
            wait(german, lambda d: d.find_element(By.ID, 'tab-resources').text == 'Resources')
            wait(german, lambda d: 'Week 37 2026' in [t.text for t in d.find_elements(By.CSS_SELECTOR, '#tasks .chart-head text')])
            self.assertEqual(console_errors(german), [])
        finally:
            german.quit()


if __name__ == '__main__':
    unittest.main(verbosity=2)
