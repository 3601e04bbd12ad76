"""Rough edges a user found in headless Chromium (issue #30), each as the user met it: Enter in a
form's dropdown saves; edit keys on a past version say it is read only and how to return; a long
title in a form's heading is cut with an ellipsis and whole in its tooltip; a link drag starts from
the centre of a handle an arrow leaves from."""

import os
import sys
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.dirname(__file__))
from harness import BrowserTests, sign_in, wait, row, export
from test_web import press, select_row, open_form, fill, dialog_closed, progress_of

LONG = 'Migrate every remaining storage layer consumer to the new plan server protocol before the beta freeze'


class EdgeTests(BrowserTests):
    languages = ('en-US',)

    def open(self, plan):
        sign_in(self.a, self.server, self.people.tokens[self.people.alice], plan)

    def test_enter_in_a_dropdown_saves_the_form(self):
        plan = self.people.plan()
        self.open(plan)
        select_row(self.a, 'Specification')
        open_form(self.a, 'g')
        fill(self.a, 'parent', 'implementation')
        self.a.find_element(By.CSS_SELECTOR, '#form-fields select[name="parent"]').send_keys(Keys.ENTER)
        wait(self.a, dialog_closed, 'Enter in the dropdown did not save')
        task = next(t for t in export(plan)['tasks'] if t['id'] == 'spec')
        self.assertEqual(task['parentID'], 'implementation')

    def test_an_edit_key_on_a_past_version_says_it_is_read_only_and_how_to_return(self):
        plan = self.people.plan()
        self.open(plan)
        select_row(self.a, 'Storage layer')
        open_form(self.a, 'p')
        fill(self.a, 'progress', '55\n')
        wait(self.a, lambda d: progress_of(d, 'Storage layer') == '55 %')
        press(self.a, 'v', 'v')
        # The history redraws as it reads the versions' ops: a click on a node just replaced is tried again.
        wait(self.a, lambda d: d.find_element(By.CSS_SELECTOR, '#history tr[data-version="1"] button').click() or True)
        wait(self.a, lambda d: d.find_element(By.ID, 'historical-text').text == 'Showing version 1 (read only)')
        # Shown in the tasks view, Storage layer still selected.
        wait(self.a, lambda d: d.find_element(By.ID, 'tasks').is_displayed() and progress_of(d, 'Storage layer') == '55 %')
        press(self.a, 'p')
        wait(self.a, lambda d: d.find_element(By.ID, 'status').text == 'Version 1 is a past version and read only: '
             'Escape or “Back to the live plan” returns to the plan.', 'the edit key said nothing')
        self.assertTrue(dialog_closed(self.a), 'no form on a past version')
        press(self.a, Keys.ESCAPE)
        wait(self.a, lambda d: d.find_element(By.ID, 'historical').get_attribute('hidden') is not None)

    def test_a_long_title_in_a_form_heading_ends_in_an_ellipsis_with_the_whole_in_its_tooltip(self):
        plan = self.people.plan(extra_tasks=[{'id': 'long', 'title': LONG, 'kind': 'activity', 'progress': 0,
                                              'schedule': {'start': '2026-09-07', 'end': '2026-09-09'}}])
        self.open(plan)
        select_row(self.a, LONG)
        open_form(self.a, 'e')
        heading = self.a.find_element(By.ID, 'form-heading')
        self.assertEqual(heading.get_attribute('title'), heading.get_attribute('textContent'))
        self.assertIn(LONG, heading.get_attribute('title'))
        figures = self.a.execute_script('''
            const heading = document.getElementById('form-heading');
            const dialog = document.getElementById('form-dialog').getBoundingClientRect();
            const box = heading.getBoundingClientRect();
            return { overflow: getComputedStyle(heading).textOverflow, lines: Math.round(box.height / parseFloat(getComputedStyle(heading).lineHeight || 18)),
                     cut: heading.scrollWidth > heading.clientWidth, inside: box.right <= dialog.right && dialog.right <= innerWidth };''')
        self.assertEqual(figures['overflow'], 'ellipsis')
        self.assertTrue(figures['cut'], 'one line, cut short')
        self.assertTrue(figures['inside'], 'within the dialog and the window')
        press(self.a, Keys.ESCAPE)
        wait(self.a, dialog_closed)

    def test_a_link_drag_from_the_centre_of_a_handle_an_arrow_leaves_from(self):
        plan = self.people.plan()
        self.open(plan)
        press(self.a, '-', '-', '-')  # six days per column: every bar in view
        wait(self.a, lambda d: d.find_element(By.ID, 'zoom-label').text == 'zoom 6 d')
        select_row(self.a, 'Storage layer')
        handle = wait(self.a, lambda d: d.find_element(By.CSS_SELECTOR, '#tasks circle.handle.selected'))
        # The arrow Storage layer → Plan server leaves from the handle's centre: the handle is what is hit there.
        hit = self.a.execute_script('''
            const box = arguments[0].getBoundingClientRect();
            const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
            return [[x, y], [x + 1, y], [x + 2, y]].every(([px, py]) => document.elementFromPoint(px, py) === arguments[0]);''', handle)
        self.assertTrue(hit, 'an arrow covers the handle')
        target = row(self.a, 'Terminal client')
        dy = target.location['y'] + target.size['height'] / 2 - (handle.location['y'] + handle.size['height'] / 2)
        ActionChains(self.a).click_and_hold(handle).move_by_offset(20, int(dy / 2)).pause(0.05) \
            .move_by_offset(0, int(dy / 2)).release().perform()
        wait(self.a, lambda d: any(dep['predecessorID'] == 'store' and dep['successorID'] == 'client'
                                   for dep in export(plan)['dependencies']), 'not linked')


if __name__ == '__main__':
    unittest.main(verbosity=2)
