"""Roles that change under an open page and stale edits resolved in one step (issue 30, items 5 and
4): a viewer promoted to editor and owner gets the controls without a reload, and demoted loses them,
an open form closing with the reason; a role that ends while a form is open says so in the form; two
browsers editing the same task from the same version, the second seeing who changed what, keeping
its draft, and applying it to the current version or discarding it."""

import os
import sys
import unittest

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(__file__))
from harness import BrowserTests, sign_in, wait, row, command, export, request, shot
from test_web import select_row, open_form, fill, dialog_closed, progress_of, press


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def handles_shown(driver):
    """Whether the chart offers the link handles at the bars' ends (editors and owners only)."""
    return driver.execute_script('''
        const handle = document.querySelector('#tasks svg .handle');
        return !!handle && getComputedStyle(handle).display !== 'none';''')


def task(plan, task_id):
    return next(t for t in export(plan)['tasks'] if t['id'] == task_id)


class LiveTests(BrowserTests):

    def test_a_viewer_promoted_gets_the_controls_at_once_and_demoted_loses_them_and_the_open_form(self):
        a, carol = self.a, self.people.carol
        plan = self.people.plan()
        sign_in(a, self.server, self.people.tokens[carol], plan)
        wait(a, lambda d: text(d, 'role') == 'role: viewer', 'the role is not in the heading')
        self.assertTrue(a.find_element(By.ID, 'add-task').get_attribute('disabled'))
        self.assertFalse(handles_shown(a), 'a viewer is offered link handles')
        command('grant', carol, plan, 'editor')
        wait(a, lambda d: text(d, 'role') == 'role: editor', 'the promotion did not reach the page')
        wait(a, lambda d: not d.find_element(By.ID, 'add-task').get_attribute('disabled'))
        self.assertEqual(text(a, 'status'), 'You are now an editor.')
        self.assertTrue(handles_shown(a))
        self.assertFalse(a.find_element(By.ID, 'settings').is_displayed(), 'settings are for owners')
        # An editor now: a form opens (no reload happened); the demotion closes it, sending nothing.
        select_row(a, 'Specification')
        open_form(a, 'p')
        fill(a, 'progress', '55')
        command('grant', carol, plan, 'viewer')
        wait(a, dialog_closed, 'the form stayed open for a viewer')
        wait(a, lambda d: text(d, 'status') == 'You are now a viewer: your draft was not sent.')
        self.assertEqual(text(a, 'role'), 'role: viewer')
        self.assertTrue(a.find_element(By.ID, 'add-task').get_attribute('disabled'))
        self.assertFalse(handles_shown(a))
        press(a, 'p')
        wait(a, lambda d: text(d, 'status') == 'Rejected: You may not edit this plan.')
        self.assertTrue(dialog_closed(a))
        self.assertEqual(task(plan, 'spec')['progress'], 60, 'the draft was not sent')
        # Owner: the settings form; made an editor, it closes.
        command('grant', carol, plan, 'owner')
        settings = wait(a, lambda d: d.find_element(By.ID, 'settings').is_displayed() and d.find_element(By.ID, 'settings'))
        settings.click()
        wait(a, lambda d: d.find_element(By.ID, 'form-heading').text == 'Scheduling settings')
        command('grant', carol, plan, 'editor')
        wait(a, dialog_closed, 'an editor kept the settings form')
        wait(a, lambda d: text(d, 'status') == 'You are now an editor: your draft was not sent.')
        self.assertFalse(a.find_element(By.ID, 'settings').is_displayed())

    def test_a_role_that_ends_says_so_in_the_open_form(self):
        a, bob = self.a, self.people.bob
        plan = self.people.plan()
        sign_in(a, self.server, self.people.tokens[bob], plan)
        select_row(a, 'Specification')
        open_form(a, 'p')
        fill(a, 'progress', '55')
        answer = request(self.server, self.people.tokens[self.people.alice], {'type': 'grant', 'plan': plan, 'user': bob, 'role': None})
        self.assertEqual(answer['type'], 'granted')
        wait(a, lambda d: text(d, 'form-error') == 'You no longer have a role on this plan: your draft was not sent.')
        self.assertFalse(a.find_element(By.ID, 'form-save').is_displayed(), 'nothing can be saved')
        wait(a, lambda d: text(d, 'status') == f'You no longer have a role on “{plan}”.')
        self.assertTrue(a.find_element(By.ID, 'plan-list').is_displayed())
        a.find_element(By.ID, 'form-close').click()
        wait(a, dialog_closed)
        self.assertEqual(task(plan, 'spec')['progress'], 60)

    def test_a_stale_edit_says_who_changed_what_keeps_the_draft_and_applies_it_or_discards_it(self):
        a, b = self.a, self.b
        alice = self.people.alice
        plan = self.people.plan()
        sign_in(a, self.server, self.people.tokens[alice], plan)
        sign_in(b, self.server, self.people.tokens[self.people.bob], plan)
        # Both open Specification at the same version; Alice saves first.
        select_row(b, 'Specification')
        open_form(b, 'e')
        fill(b, 'title', 'Spec v2')
        select_row(a, 'Specification')
        open_form(a, 'p')
        fill(a, 'progress', '80\n')
        wait(a, dialog_closed)
        version = text(a, 'version')
        wait(b, lambda d: progress_of(d, 'Specification') == '80 %')
        b.find_element(By.ID, 'form-save').click()
        wait(b, lambda d: 'Changed since' in text(d, 'form-error'), 'the conflict does not say what changed')
        self.assertEqual(text(b, 'form-error'), 'Rejected: The task was changed or removed in the meantime. '
                         f'Changed since by {alice} ({version}): set the progress of “Specification” to 80 %.')
        self.assertEqual(b.find_element(By.CSS_SELECTOR, '#form-fields [name="title"]').get_attribute('value'), 'Spec v2')
        self.assertFalse(b.find_element(By.ID, 'form-save').is_displayed(), 'Save would repeat the rejection')
        self.assertEqual(text(b, 'form-close'), 'Discard')
        shot(b, 'stale-conflict')
        offer = b.find_element(By.ID, 'form-offer')
        self.assertEqual(offer.text, 'Apply mine to the current version')
        offer.click()
        wait(b, dialog_closed, 'Apply mine was not acknowledged')
        wait(b, lambda d: text(d, 'status') == 'Saved.')
        self.assertEqual({k: task(plan, 'spec')[k] for k in ('title', 'progress')}, {'title': 'Spec v2', 'progress': 80},
                         'the draft on top of the current value')
        wait(a, lambda d: row(d, 'Spec v2'))
        # Again, and Discard: nothing is sent.
        select_row(b, 'Spec v2')
        open_form(b, 'p')
        fill(b, 'progress', '10')
        select_row(a, 'Spec v2')
        open_form(a, 'e')
        fill(a, 'title', 'Spec v3\n')
        wait(a, dialog_closed)
        wait(b, lambda d: row(d, 'Spec v3'))
        b.find_element(By.ID, 'form-save').click()
        wait(b, lambda d: 'renamed “Spec v2” to “Spec v3”' in text(d, 'form-error'))
        b.find_element(By.ID, 'form-close').click()
        wait(b, dialog_closed)
        self.assertEqual({k: task(plan, 'spec')[k] for k in ('title', 'progress')}, {'title': 'Spec v3', 'progress': 80})


if __name__ == '__main__':
    unittest.main(verbosity=2)
