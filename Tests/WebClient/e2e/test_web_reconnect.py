"""The web client across a server's restart: it reconnects, resumes, and re-sends the proposal
made while the server was down exactly once, also after a reload (issue 16)."""

import json
import os
import sys
import unittest

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(__file__))
from harness import Server, People, browser, sign_in, wait, cells, console_errors, history
from test_web import select_row, open_form, fill, dialog_closed, progress_of


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


if __name__ == '__main__':
    unittest.main(verbosity=2)
