"""Every task and entry form the browser suite's other steps leave out, by keys alone, each checked
in the plan the server stores: details, dates, duration, group, order, unlink, remove, add child;
an entry added and removed; the link form's task picker used by keys alone (ARIA combobox)."""

import os
import sys
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.dirname(__file__))
from harness import BrowserTests, Server, People, browser, sign_in, wait, row, cells, console_errors, export
from test_web import press, select_row, open_form, fill, dialog_closed

# The picker's state: its input's ARIA attributes, the options listed (ids), the active one, the id chosen.
PICKER = '''
const box = document.querySelector('#form-fields [role=combobox]');
const list = document.getElementById(box.getAttribute('aria-controls'));
return { focused: document.activeElement === box, expanded: box.getAttribute('aria-expanded'), shown: !list.hidden,
  options: [...list.querySelectorAll('[role=option]')].map((o) => o.dataset.id),
  active: document.getElementById(box.getAttribute('aria-activedescendant'))?.dataset.id ?? null,
  selected: [...list.querySelectorAll('[aria-selected=true]')].map((o) => o.dataset.id),
  chosen: box.parentElement.querySelector('input[type=hidden]').value, text: box.value };'''


class FormTests(BrowserTests):
    languages = ('en-US',)

    def save(self, key, **values):
        open_form(self.a, key)
        for name, value in values.items():
            fill(self.a, name, value)
        self.a.find_element(By.ID, 'form-save').click()
        wait(self.a, dialog_closed, f'the {key} form did not close')

    def test_every_task_form_and_an_entry_added_and_removed(self):
        plan = self.people.plan()
        sign_in(self.a, self.server, self.people.tokens[self.people.alice], plan)
        task = lambda id: next((t for t in export(plan)['tasks'] if t['id'] == id), None)
        select_row(self.a, 'Specification')
        self.save('e', title='Spec')
        wait(self.a, lambda d: row(d, 'Spec'))
        self.save('d', start='2026-09-14')
        self.assertEqual(task('spec')['schedule'], {'start': '2026-09-14', 'end': '2026-09-22'}, 'the length is kept')
        self.save('u', days='3')
        wait(self.a, lambda d: cells(d, 'Spec')[2] == '2026-09-14 – 2026-09-16')
        self.save('L', dependency='{"predecessorID":"research","successorID":"spec","type":"finish-to-start","lag":0}')
        pairs = [(d['predecessorID'], d['successorID']) for d in export(plan)['dependencies']]
        self.assertNotIn(('research', 'spec'), pairs)
        self.save('g', parent='implementation')
        self.assertEqual(task('spec')['parentID'], 'implementation')
        select_row(self.a, 'Plan server')
        self.save('o', position='before', sibling='store')
        ids = [t['id'] for t in export(plan)['tasks']]
        self.assertLess(ids.index('server'), ids.index('store'))
        select_row(self.a, 'Documentation')
        self.save('x')
        wait(self.a, lambda d: row(d, 'Documentation') is None)
        self.assertIsNone(task('docs'))
        select_row(self.a, 'Release')
        self.save('c', title='Retro', kind='milestone', start='2026-11-10')
        retro = wait(self.a, lambda d: next((t for t in export(plan)['tasks'] if t['title'] == 'Retro'), None))
        self.assertEqual((retro['kind'], retro['date'], retro['parentID']), ('milestone', '2026-11-10', 'release'))
        # An entry added on Room Aurora, then removed.
        press(self.a, 'v')
        wait(self.a, lambda d: d.find_elements(By.CSS_SELECTOR, '#resources rect.entry'))
        open_form(self.a, 'a')
        fill(self.a, 'title', 'Stand-up')
        fill(self.a, 'start', '2026-09-15T09:00')
        fill(self.a, 'end', '2026-09-15T12:00')
        self.a.find_element(By.CSS_SELECTOR, '#form-fields input[type=checkbox][value="room-aurora"]').click()
        self.a.find_element(By.ID, 'form-save').click()
        wait(self.a, dialog_closed)
        added = next(e for e in export(plan)['entries'] if e['title'] == 'Stand-up')
        assignment = next(a for a in export(plan)['assignments'] if a['entryID'] == added['id'])
        self.assertEqual(assignment['resourceID'], 'room-aurora')
        wait(self.a, lambda d: d.find_element(By.CSS_SELECTOR, f'#resources rect.entry[data-assignment="{assignment["id"]}"]')).click()
        self.save('x')
        self.assertNotIn(added['id'], [e['id'] for e in export(plan)['entries']])
        wait(self.a, lambda d: not d.find_elements(By.CSS_SELECTOR, f'#resources rect.entry[data-assignment="{assignment["id"]}"]'))

    def test_the_link_forms_task_picker_by_keys_alone(self):
        a = self.a
        check = {'id': 'check', 'title': 'Überprüfung', 'kind': 'activity', 'progress': 0,
                 'schedule': {'start': '2026-09-01', 'end': '2026-09-02'}}
        plan = self.people.plan(extra_tasks=[check])
        sign_in(a, self.server, self.people.tokens[self.people.alice], plan)
        picker = lambda d: d.execute_script(PICKER)
        select_row(a, 'Documentation')
        open_form(a, 'l')
        press(a, Keys.TAB)  # from the role to the picker
        state = wait(a, lambda d: (s := picker(d))['focused'] and s)
        self.assertEqual((state['expanded'], state['shown'], state['chosen']), ('false', False, ''))
        press(a, 'UBER')  # case and accents ignored
        wait(a, lambda d: picker(d)['options'] == ['check'] and picker(d)['active'] == 'check')
        self.assertEqual(picker(a)['expanded'], 'true')
        for _ in 'UBER':
            press(a, Keys.BACKSPACE)
        press(a, 's')  # ids first (by id), then titles, then containing; not itself, no summary
        wait(a, lambda d: picker(d)['options'] == ['server', 'spec', 'store', 'research', 'design-review'])
        self.assertEqual(picker(a)['active'], 'server')
        press(a, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_UP)
        wait(a, lambda d: picker(d)['active'] == 'spec' and picker(d)['selected'] == ['spec'])
        press(a, Keys.ESCAPE)  # closes the list first, not the form
        wait(a, lambda d: picker(d)['expanded'] == 'false' and not picker(d)['shown'])
        self.assertIsNotNone(a.find_element(By.ID, 'form-dialog').get_attribute('open'))
        press(a, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ENTER)  # reopened at the first; Enter picks, saves nothing yet
        state = wait(a, lambda d: (s := picker(d))['chosen'] == 'spec' and s)
        self.assertEqual((state['text'], state['expanded']), ('Specification', 'false'))
        self.assertIsNotNone(a.find_element(By.ID, 'form-dialog').get_attribute('open'))
        press(a, Keys.TAB)  # Tab leaves for the type
        wait(a, lambda d: d.execute_script('return document.activeElement.name') == 'type')
        press(a, Keys.ENTER)
        wait(a, dialog_closed)
        self.assertIn({'predecessorID': 'docs', 'successorID': 'spec', 'type': 'finish-to-start', 'lag': 0},
                      export(plan)['dependencies'])
        self.assertEqual(console_errors(a), [])


if __name__ == '__main__':
    unittest.main(verbosity=2)
