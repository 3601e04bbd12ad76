"""Scheduling in the web client (issue 29), against a real server and an automatic plan of a chain
(design → build → test → release, start-to-start +3 in the middle, Monday–Friday with a holiday):
the calendar shaded at two zooms, arrows from the ends their type names with their labels, the
critical path and slack from the server's figures; the owner's settings form, whose new holiday
pushes two tasks (flashing, counted in the status line); a scheduleConflict answered with
"Move to <date>"; an editor (in German) offered no settings, linking with a type and a lag and
reading them in the unlink form."""

import copy
import os
import sys
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.dirname(__file__))
from harness import BrowserTests, Server, People, browser, sign_in, wait, row, console_errors, shot, export
from test_web import press, select_row, open_form, fill, dialog_closed

CHAIN = {
    'title': 'Scheduled launch',
    'settings': {'scheduling': 'automatic', 'calendar': {'workingDays': [1, 2, 3, 4, 5], 'holidays': ['2026-09-25']}},
    'tasks': [
        {'id': 'design', 'title': 'Design', 'kind': 'activity', 'schedule': {'start': '2026-09-07', 'end': '2026-09-09'}, 'progress': 50},
        {'id': 'build', 'title': 'Build', 'kind': 'activity', 'schedule': {'start': '2026-09-09', 'end': '2026-09-12'}, 'progress': 0},
        {'id': 'test', 'title': 'Test', 'kind': 'activity', 'schedule': {'start': '2026-09-14', 'end': '2026-09-16'}, 'progress': 0},
        {'id': 'release', 'title': 'Release', 'kind': 'milestone', 'date': '2026-09-16'},
        {'id': 'side', 'title': 'Side work', 'kind': 'activity', 'schedule': {'start': '2026-09-07', 'end': '2026-09-08'}, 'progress': 0},
    ],
    'dependencies': [
        {'predecessorID': 'design', 'successorID': 'build'},
        {'predecessorID': 'build', 'successorID': 'test', 'type': 'start-to-start', 'lag': 3},
        {'predecessorID': 'test', 'successorID': 'release'},
    ],
}


def chart(driver, selector, script='return [...arguments[0]].map((node) => node.dataset.id)'):
    """What `script` makes of the task chart's nodes matching `selector`."""
    return driver.execute_script(script, driver.find_elements(By.CSS_SELECTOR, f'#tasks {selector}'))


# Records in `window.flashed` each bar or diamond ("rect.bar test") that gets the class `pushed`.
FLASH_RECORDER = '''
window.flashed = new Set();
const note = (node) => {
  if (node.classList?.contains('pushed') && ['bar', 'milestone'].includes(node.classList[0])) window.flashed.add(`${node.tagName.toLowerCase()}.${node.classList[0]} ${node.dataset.id}`);
};
new MutationObserver((records) => {
  for (const record of records) {
    note(record.target);
    for (const node of record.addedNodes) { note(node); node.querySelectorAll?.('.pushed').forEach(note); }
  }
}).observe(document.getElementById('tasks'), { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
'''


def shaded(driver):
    return chart(driver, 'rect.off', 'return [...arguments[0]].map((node) => [node.dataset.from, node.dataset.to])')


def labels(driver):
    return chart(driver, 'text.arrow-label', 'return [...arguments[0]].map((node) => node.textContent)')


def slack_note(driver, task):
    """The slack line of `task`'s tooltip in the chart (bar-tooltip.mjs), shown by resting the pointer on its mark."""
    wait(driver, lambda d: d.execute_script('return document.body.dataset.preloaded') == 'all')
    mark = driver.find_element(By.CSS_SELECTOR, f'#tasks svg.chart-body [data-id="{task}"]:is(.bar, .milestone)')
    ActionChains(driver).move_to_element(mark).perform()
    return wait(driver, lambda d: d.execute_script('''
        const tip = document.getElementById('bar-tip');
        return tip && !tip.hidden && tip.dataset.id === arguments[0] ? [tip.querySelector('.slack')?.textContent ?? null] : null;''', task),
        f'no tooltip for {task}')[0]


def status(driver):
    return driver.find_element(By.ID, 'status').text


def schedule_of(plan, task_id):
    task = next(t for t in export(plan)['tasks'] if t['id'] == task_id)
    return task.get('schedule') or task.get('date')


class SchedulingTests(BrowserTests):
    languages = ('en-US', 'de-DE')

    def test_owner_sees_the_calendar_and_critical_path_changes_settings_and_moves_a_conflict_in_one_click(self):
        a = self.a
        plan = self.people.plan(data=copy.deepcopy(CHAIN))
        sign_in(a, self.server, self.people.tokens[self.people.alice], plan, shown='Side work')
        # The weekend shaded at one day per column; the start-to-start arrow labelled.
        wait(a, lambda d: ['2026-09-12', '2026-09-14'] in shaded(d), 'the weekend is not shaded')
        wait(a, lambda d: labels(d) == ['SS +3'])
        # The critical path from the server's figures; slack in the tooltip.
        wait(a, lambda d: sorted(chart(d, 'rect.bar.critical')) == ['build', 'design', 'test'], 'no critical path')
        wait(a, lambda d: chart(d, 'path.milestone.critical') == ['release'])
        self.assertEqual(len(chart(a, 'path.arrow.critical')), 3, 'the three binding arrows are critical')
        self.assertEqual(slack_note(a, 'side'), 'Slack: 6 working days')
        self.assertEqual(slack_note(a, 'design'), 'Slack: 0 working days (critical)')
        # Zoomed out: the holiday (a Friday) and its weekend are one shaded run.
        press(a, '-')
        wait(a, lambda d: ['2026-09-25', '2026-09-28'] in shaded(d), 'the holiday is not shaded at zoom 2')
        shot(a, 'scheduling-automatic')
        # The owner's settings form (the toolbar entry): a new holiday pushes test and release.
        settings = a.find_element(By.ID, 'settings')
        self.assertTrue(settings.is_displayed(), 'an owner is offered the settings')
        settings.click()
        wait(a, lambda d: d.find_element(By.ID, 'form-dialog').get_attribute('open') is not None)
        ticked = a.execute_script('''return [...document.querySelectorAll('#form-fields fieldset[data-name="workingDays"] input:checked')]
            .map((box) => box.value)''')
        self.assertEqual(ticked, ['1', '2', '3', '4', '5'])
        fill(a, 'add', '2026-09-10')
        # Every mark that takes the flash is recorded as it happens, so that a slow machine, on
        # which the two seconds may pass between two looks, still sees it.
        a.execute_script(FLASH_RECORDER)
        a.find_element(By.ID, 'form-save').click()
        wait(a, lambda d: d.execute_script('return [...window.flashed].sort()') == ['path.milestone release', 'rect.bar test'],
             'the pushed tasks do not flash')
        wait(a, dialog_closed)
        wait(a, lambda d: status(d) == 'Saved. 2 tasks pushed.')
        wait(a, lambda d: not chart(d, '.pushed'), 'the flash did not end')
        self.assertEqual(export(plan)['settings']['calendar']['holidays'], ['2026-09-10', '2026-09-25'])
        self.assertEqual(schedule_of(plan, 'test'), {'start': '2026-09-15', 'end': '2026-09-17'})
        self.assertEqual(schedule_of(plan, 'release'), '2026-09-17')
        wait(a, lambda d: ['2026-09-10', '2026-09-11'] in shaded(d), 'the new holiday is not shaded')
        # Test moved before its earliest start (Friday 11th and Saturday: one working day): the
        # form says why and offers the earliest date, keeping the one working day.
        select_row(a, 'Test')
        open_form(a, 'd')
        fill(a, 'start', '2026-09-11')
        a.find_element(By.ID, 'form-save').click()
        wait(a, lambda d: d.find_element(By.ID, 'form-error').text.startswith('Rejected: “Test” cannot start before 2026-09-15'))
        offer = a.find_element(By.ID, 'form-offer')
        self.assertEqual(offer.text, 'Move to 2026-09-15')
        offer.click()
        wait(a, dialog_closed)
        self.assertEqual(schedule_of(plan, 'test'), {'start': '2026-09-15', 'end': '2026-09-16'})

    def test_an_editor_in_german_links_with_a_type_and_a_lag_and_is_offered_no_settings(self):
        b = self.b
        plan = self.people.plan(data=copy.deepcopy(CHAIN))
        sign_in(b, self.server, self.people.tokens[self.people.bob], plan, shown='Side work')
        wait(b, lambda d: labels(d) == ['AA +3'])
        self.assertFalse(b.find_element(By.ID, 'settings').is_displayed(), 'no settings for an editor')
        press(b, 'S')
        wait(b, lambda d: status(d) == 'Nur Eigentümer des Plans dürfen die Planungseinstellungen ändern.')
        select_row(b, 'Side work')
        open_form(b, 'l')
        picker = b.find_element(By.CSS_SELECTOR, '#form-fields [role=combobox]')
        self.assertEqual(picker.get_attribute('placeholder'), 'Titel oder Kennung eingeben')
        fill(b, 'other', 'release')
        fill(b, 'type', 'finish-to-finish')
        fill(b, 'lag', '1,5')
        b.find_element(By.ID, 'form-save').click()
        wait(b, lambda d: d.find_element(By.ID, 'form-error').text == 'Der Abstand ist eine ganze Zahl von Arbeitstagen zwischen −1000 und 1000.')
        fill(b, 'lag', '+1')
        b.find_element(By.ID, 'form-save').click()
        wait(b, dialog_closed)
        self.assertIn({'predecessorID': 'side', 'successorID': 'release', 'type': 'finish-to-finish', 'lag': 1},
                      export(plan)['dependencies'])
        wait(b, lambda d: sorted(labels(d)) == ['AA +3', 'EE +1'])
        open_form(b, 'L')
        option = b.find_element(By.CSS_SELECTOR, '#form-fields select[name="dependency"] option')
        self.assertEqual(option.text, 'Side work → Release (Ende → Ende, +1 Arbeitstag)')
        b.find_element(By.ID, 'form-dialog').send_keys(Keys.ESCAPE)
        wait(b, dialog_closed)
        self.assertIsNotNone(row(b, 'Side work'))


if __name__ == '__main__':
    unittest.main(verbosity=2)
