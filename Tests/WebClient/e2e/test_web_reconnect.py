"""The web client across a server's restart: it reconnects, resumes, and re-sends the proposal
made while the server was down exactly once, also after a reload (issue 16); offline, it says how
many changes wait, counts the reconnect down each second and reconnects at once on Retry now; the
changes queued while a role ended are listed as not sent and never applied (issue 30)."""

import json
import os
import re
import sys
import unittest

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(__file__))
from harness import Server, People, browser, sign_in, wait, cells, console_errors, history, export, request, command, shot
from test_web import select_row, open_form, fill, dialog_closed, progress_of

OFFLINE = ('WebSocket connection to', 'ERR_CONNECTION_REFUSED')

# Records every text the connection badge shows, in order, in `window.connectionTexts`.
CONNECTION_RECORDER = '''
window.connectionTexts = [];
const badge = document.getElementById('connection');
new MutationObserver(() => window.connectionTexts.push(badge.textContent))
  .observe(badge, { childList: true, characterData: true, subtree: true });
'''


# Records the type of every message the page sends, in `window.sentTypes`.
SEND_RECORDER = '''
window.sentTypes = [];
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) { window.sentTypes.push(JSON.parse(data).type); return send.call(this, data); };
'''


def countdown(driver):
    """The seconds the connection badge counts down from, or None."""
    found = re.search(r'reconnecting in (\d+) s', driver.find_element(By.ID, 'connection').text)
    return int(found.group(1)) if found else None


def counted_down(driver):
    """Whether the badge has shown some 'in N s' directly followed by 'in N−1 s'."""
    seconds = [int(m.group(1)) if m else None for m in
               (re.search(r'in (\d+) s', text) for text in driver.execute_script('return window.connectionTexts'))]
    return any(a is not None and b == a - 1 for a, b in zip(seconds, seconds[1:]))


def waiting(driver):
    return driver.find_element(By.ID, 'pending').text


def stored_pending(driver):
    return driver.execute_script('return JSON.parse(sessionStorage.getItem("chronosketch.pending.v1")).proposals')


class ReconnectTests(unittest.TestCase):
    """A server killed and started again on its port: the page reconnects, resumes and re-sends
    the proposal made while it was down exactly once, also across a reload."""

    def test_reconnect_and_resend_a_pending_proposal_exactly_once(self):
        server = Server()
        people = People()
        driver = browser()
        try:
            plan = people.plan()
            sign_in(driver, server, people.tokens[people.alice], plan)
            before = len(history(plan))
            # The forms and views are fetched after the first render: the form below opens while
            # the server is away only once they are here.
            wait(driver, lambda d: d.find_element(By.TAG_NAME, 'body').get_attribute('data-preloaded') == 'all')
            server.kill()
            wait(driver, lambda d: 'reconnecting' in d.find_element(By.ID, 'connection').text)
            # The other language's module cannot be fetched now: the page says so and stays English.
            driver.find_element(By.ID, 'language').click()
            wait(driver, lambda d: d.find_element(By.ID, 'status').text.startswith('Server error:'))
            self.assertEqual(driver.find_element(By.ID, 'tab-resources').text, 'Resources')
            select_row(driver, 'Plan server')
            open_form(driver, 'p')
            fill(driver, 'progress', '42\n')
            wait(driver, lambda d: d.find_element(By.ID, 'form-save').text == 'Queued (offline)', 'a form saved offline says it is queued')
            wait(driver, lambda d: '(pending)' in cells(d, 'Plan server')[0])
            self.assertEqual(progress_of(driver, 'Plan server'), '10 %', 'nothing drawn before it is confirmed')
            stored = driver.execute_script('return sessionStorage.getItem("chronosketch.pending.v1")')
            pending = json.loads(stored)['proposals']
            self.assertEqual(len(pending), 1)
            server.start()
            wait(driver, lambda d: d.find_element(By.ID, 'connection').text == 'connected', 'no reconnect', timeout=30)
            wait(driver, lambda d: progress_of(d, 'Plan server') == '42 %')
            wait(driver, dialog_closed, 'the form closes on the re-sent proposal\'s ack')
            wait(driver, lambda d: d.execute_script(
                'return JSON.parse(sessionStorage.getItem("chronosketch.pending.v1")).proposals.length') == 0)
            entries = history(plan)
            self.assertEqual(len(entries), before + 1, 'applied once')
            driver.find_element(By.ID, 'language').click()
            wait(driver, lambda d: d.find_element(By.ID, 'tab-resources').text == 'Ressourcen', 'German once the server is back')
            driver.find_element(By.ID, 'language').click()
            wait(driver, lambda d: d.find_element(By.ID, 'tab-resources').text == 'Resources')
            self.assertEqual([e['mutation']['id'] for e in entries[before:]], [pending[0]['id']])
            # A reload before the answer had come: the page finds the proposal in sessionStorage and
            # sends it again with its id; the server answers with the first decision, applies nothing.
            driver.execute_script('sessionStorage.setItem("chronosketch.pending.v1", arguments[0])', stored)
            driver.refresh()
            wait(driver, lambda d: d.find_element(By.ID, 'connection').text == 'connected')
            wait(driver, lambda d: d.execute_script(
                'return JSON.parse(sessionStorage.getItem("chronosketch.pending.v1")).proposals.length') == 0)
            wait(driver, lambda d: d.find_element(By.ID, 'status').text == 'Saved.')
            self.assertEqual(len(history(plan)), before + 1, 'the re-sent proposal is not applied twice')
            self.assertEqual(progress_of(driver, 'Plan server'), '42 %')
            # Kill again after it was answered: after the reconnect nothing is sent again.
            server.kill()
            wait(driver, lambda d: 'reconnecting' in d.find_element(By.ID, 'connection').text)
            server.start()
            wait(driver, lambda d: d.find_element(By.ID, 'connection').text == 'connected', timeout=30)
            self.assertEqual(len(history(plan)), before + 1)
            self.assertEqual(console_errors(driver, allowed=('WebSocket connection to', 'ERR_CONNECTION_REFUSED')), [])
        finally:
            driver.quit()
            server.stop()


    def test_offline_the_queue_is_counted_the_reconnect_counted_down_and_retry_now_reconnects_at_once(self):
        server = Server()
        people = People()
        driver = browser()
        try:
            plan = people.plan()
            sign_in(driver, server, people.tokens[people.alice], plan)
            wait(driver, lambda d: d.find_element(By.TAG_NAME, 'body').get_attribute('data-preloaded') == 'all')
            self.assertFalse(driver.find_element(By.ID, 'retry-now').is_displayed(), 'no Retry now while connected')
            driver.execute_script(CONNECTION_RECORDER)
            server.kill()
            select_row(driver, 'Plan server')
            open_form(driver, 'p')
            fill(driver, 'progress', '42\n')
            wait(driver, lambda d: d.find_element(By.ID, 'form-save').text == 'Queued (offline)')
            self.assertEqual(waiting(driver), '1 change waiting')
            # The delay grows to several seconds; each second the badge says one less.
            wait(driver, counted_down, 'the reconnect is not counted down', timeout=40)
            wait(driver, lambda d: (countdown(d) or 0) >= 5, 'no long delay', timeout=40)
            self.assertTrue(driver.find_element(By.ID, 'retry-now').is_displayed())
            shot(driver, 'offline-countdown')
            server.start()
            # Retry now while the countdown still runs: the page connects at once, not when it ends.
            before, after = wait(driver, lambda d: d.execute_script('''
                const badge = document.getElementById('connection');
                const seconds = Number(/in (\\d+) s/.exec(badge.textContent)?.[1] ?? 0);
                if (seconds < 2) return null;
                const before = badge.textContent;
                document.getElementById('retry-now').click();
                return [before, badge.textContent];'''), 'the countdown ended before Retry now')
            self.assertRegex(before, r'^disconnected, reconnecting in \d+ s$')
            self.assertEqual(after, 'disconnected, reconnecting', 'Retry now connects at once')
            wait(driver, lambda d: d.find_element(By.ID, 'connection').text == 'connected')
            self.assertFalse(driver.find_element(By.ID, 'retry-now').is_displayed())
            wait(driver, dialog_closed, 'the queued change was not sent after Retry now')
            wait(driver, lambda d: waiting(d) == '')
            self.assertEqual(next(t for t in export(plan)['tasks'] if t['id'] == 'server')['progress'], 42)
            self.assertEqual(console_errors(driver, allowed=OFFLINE), [])
        finally:
            driver.quit()
            server.stop()

    def test_changes_queued_when_the_role_ends_are_listed_as_not_sent_and_never_applied(self):
        server = Server()
        people = People()
        driver = browser()
        other = None
        try:
            plan = people.plan()
            sign_in(driver, server, people.tokens[people.bob], plan)
            wait(driver, lambda d: d.find_element(By.TAG_NAME, 'body').get_attribute('data-preloaded') == 'all')
            before = history(plan)
            server.kill()
            wait(driver, lambda d: 'reconnecting' in d.find_element(By.ID, 'connection').text)
            # Two changes queued offline; the form of the second stays open.
            select_row(driver, 'Plan server')
            open_form(driver, 'p')
            fill(driver, 'progress', '42\n')
            wait(driver, lambda d: d.find_element(By.ID, 'form-save').text == 'Queued (offline)')
            driver.find_element(By.ID, 'form-close').click()
            select_row(driver, 'Specification')
            open_form(driver, 'e')
            fill(driver, 'title', 'Spec 2\n')
            wait(driver, lambda d: waiting(d) == '2 changes waiting')
            # Meanwhile Alice revokes Bob's role (on another server of the same database).
            other = Server()
            answer = request(other, people.tokens[people.alice], {'type': 'grant', 'plan': plan, 'user': people.bob, 'role': None})
            self.assertEqual(answer['type'], 'granted')
            other.stop()
            driver.execute_script(SEND_RECORDER)
            server.start()
            driver.execute_script('document.getElementById("retry-now").click()')
            wait(driver, lambda d: d.find_element(By.ID, 'form-error').text ==
                 'You no longer have a role on this plan: your draft was not sent.', 'the open form kept waiting', timeout=30)
            self.assertNotEqual(driver.find_element(By.ID, 'form-save').text, 'Queued (offline)')
            wait(driver, lambda d: d.find_element(By.ID, 'status').text == (
                f'You no longer have a role on “{plan}”. 2 changes were not sent: set the progress of “Plan server” to 42 %; '
                'renamed “Specification” to “Spec 2”.'))
            self.assertEqual(stored_pending(driver), [], 'nothing is kept to be sent later')
            sent = driver.execute_script('return window.sentTypes')
            self.assertIn('subscribe', sent)
            self.assertNotIn('propose', sent, 'a queued change was sent after the role ended')
            # A role again, and the plan opened again: still nothing of them is sent. A new change
            # goes after anything re-sent, so once it is applied nothing else was.
            driver.find_element(By.ID, 'form-close').click()
            command('grant', people.bob, plan, 'editor')
            driver.get(f'{server.url}/?plan={plan}')
            wait(driver, lambda d: d.find_element(By.ID, 'role').text == 'role: editor')
            select_row(driver, 'Documentation')
            open_form(driver, 'p')
            fill(driver, 'progress', '7\n')
            wait(driver, dialog_closed)
            after = history(plan)
            self.assertEqual(len(after), len(before) + 1, 'only the new change was applied')
            tasks = {t['id']: t for t in export(plan)['tasks']}
            self.assertEqual((tasks['server']['progress'], tasks['spec']['title'], tasks['docs']['progress']), (10, 'Specification', 7))
            self.assertEqual(console_errors(driver, allowed=OFFLINE), [])
        finally:
            driver.quit()
            if other:
                other.stop()
            server.stop()


if __name__ == '__main__':
    unittest.main(verbosity=2)
