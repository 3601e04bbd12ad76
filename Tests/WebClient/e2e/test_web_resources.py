"""The resources view in the web client as a person uses it (issue 16), in headless Chromium against a
real plan-server and PostgreSQL: a booking moved by its form and reassigned by a drag, a failed load
retried, and a booking resized by dragging an end."""

import os
import sys
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(__file__))
from harness import BrowserTests, sign_in, wait, row, shot, export
from test_web import press, open_form, fill, dialog_closed


class ResourcesTests(BrowserTests):
    """Two English browsers on one server."""

    def open(self, driver, person, plan):
        sign_in(driver, self.server, self.people.tokens[person], plan)

    def test_resources_move_by_form_and_reassign_by_drag(self):
        plan = self.people.plan()
        self.open(self.a, self.people.alice, plan)
        press(self.a, 'v')
        entry = wait(self.a, lambda d: next((e for e in d.find_elements(By.CSS_SELECTOR, '#resources rect.entry')
                                            if e.get_attribute('data-assignment') == 'a-kickoff'), None))
        wait(self.a, lambda d: 'Loading' not in d.find_element(By.CSS_SELECTOR, '#resources .corner').text)
        shot(self.a, 'resources')
        entry.click()
        open_form(self.a, 'm')
        fill(self.a, 'start', '2026-09-07T10:00')
        self.a.find_element(By.ID, 'form-save').click()
        wait(self.a, dialog_closed)
        kickoff = lambda: next(e for e in export(plan)['entries'] if e['id'] == 'kickoff')
        self.assertEqual((kickoff()['start'], kickoff()['end']), ('2026-09-07T10:00', '2026-09-07T13:30'))
        # Drag it down one row, onto Room Borealis.
        moved = wait(self.a, lambda d: next((e for e in d.find_elements(By.CSS_SELECTOR, '#resources rect.entry')
                                            if e.get_attribute('data-assignment') == 'a-kickoff'), None))
        label = next(e for e in self.a.find_elements(By.CSS_SELECTOR, '#resources .row') if 'Borealis' in e.text)
        dy = label.location['y'] + label.size['height'] / 2 - (moved.location['y'] + moved.size['height'] / 2)
        # The form's save said "Saved." already: cleared, the next one is the drag's.
        self.a.execute_script('document.getElementById("status").textContent = ""')
        ActionChains(self.a).click_and_hold(moved).move_by_offset(0, dy / 2).move_by_offset(0, dy / 2).release().perform()
        wait(self.a, lambda d: d.find_element(By.ID, 'status').text == 'Saved.')
        assignment = next(a for a in export(plan)['assignments'] if a['id'] == 'a-kickoff')
        self.assertEqual(assignment['resourceID'], 'room-borealis')
        wait(self.a, lambda d: any(e.get_attribute('data-resource') == 'room-borealis' and
                                   e.get_attribute('data-assignment') == 'a-kickoff'
                                   for e in d.find_elements(By.CSS_SELECTOR, '#resources rect.entry')))
        # Its details (i), and from there a rename (e), by keys alone.
        open_form(self.a, 'i')
        wait(self.a, lambda d: d.find_element(By.ID, 'form-heading').text == 'Kick-off workshop')
        self.assertIn('Room Borealis', self.a.find_element(By.ID, 'form-note').text)
        press(self.a, 'e')
        wait(self.a, lambda d: d.find_element(By.ID, 'form-heading').text == 'Rename entry: Kick-off workshop')
        fill(self.a, 'title', 'Kick-off\n')
        wait(self.a, dialog_closed)
        self.assertEqual(kickoff()['title'], 'Kick-off')

    def test_resources_retry_after_a_failed_load_and_resize_by_dragging_an_end(self):
        plan = self.people.plan()
        self.open(self.a, self.people.alice, plan)
        # The next watch the page sends names a resource the plan lacks: the server refuses it.
        self.a.execute_script('''
            const send = WebSocket.prototype.send;
            WebSocket.prototype.send = function (data) {
              const message = JSON.parse(data);
              if (message.type !== 'watch') return send.call(this, data);
              WebSocket.prototype.send = send;
              message.query.resourceIDs.push('no-such-room');
              return send.call(this, JSON.stringify(message));
            };''')
        press(self.a, 'v')
        corner = lambda d: d.find_element(By.CSS_SELECTOR, '#resources .corner').text
        wait(self.a, lambda d: 'Load failed' in corner(d), 'the refused watch is not shown')
        self.assertEqual(self.a.find_elements(By.CSS_SELECTOR, '#resources rect.entry'), [])
        self.a.find_element(By.CSS_SELECTOR, '#resources .corner button.retry').click()
        wait(self.a, lambda d: 'Load failed' not in corner(d) and 'Loading' not in corner(d), 'Retry did not load')
        edge = lambda side: wait(self.a, lambda d: d.find_element(
            By.CSS_SELECTOR, f'#resources rect.entry-edge[data-assignment="a-interviews-1"][data-edge="{side}"]'))
        interviews = lambda: next(e for e in export(plan)['entries'] if e['id'] == 'interviews')
        # One day is 40 px at zoom 1: 10 px are 6 hours.
        ActionChains(self.a).click_and_hold(edge('end')).move_by_offset(5, 0).move_by_offset(5, 0).release().perform()
        wait(self.a, lambda d: d.find_element(By.ID, 'status').text == 'Saved.')
        self.assertEqual((interviews()['start'], interviews()['end']), ('2026-09-08T13:00', '2026-09-10T23:00'))
        self.a.execute_script('document.getElementById("status").textContent = ""')
        ActionChains(self.a).click_and_hold(edge('start')).move_by_offset(-5, 0).move_by_offset(-5, 0).release().perform()
        wait(self.a, lambda d: d.find_element(By.ID, 'status').text == 'Saved.')
        self.assertEqual((interviews()['start'], interviews()['end']), ('2026-09-08T07:00', '2026-09-10T23:00'))


if __name__ == '__main__':
    unittest.main(verbosity=2)
