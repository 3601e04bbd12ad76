"""Exports from the web client (issue 30, item 8), in headless Chromium against a real plan-server:
each format from the menu (keyboard and mouse) downloaded with the page's token and checked byte by
byte, X-Export-Warnings said in words, the chart as a PNG; a viewer exporting, in German, the past
version shown in the history's time travel; 401 and 404 answers and an unreachable server said in
words."""

import json
import math
import os
import struct
import sys
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.dirname(__file__))
from harness import BrowserTests, Server, sign_in, wait, request, export, suffix, allow_downloads, downloaded, console_errors, shot
from test_web import press

PNG_MAGIC = b'\x89PNG\r\n\x1a\n'


def propose_progress(server, token, plan, task_id, progress):
    """Sets a task's progress in a version of its own (a proposal on a WebSocket of its own); the version."""
    data = export(plan)
    task = next(task for task in data['tasks'] if task['id'] == task_id)
    answer = request(server, token, {'type': 'propose', 'id': f'e-{suffix()}', 'plan': plan, 'baseVersion': data['version'],
                                     'op': {'type': 'replace', 'previous': task, 'proposed': {**task, 'progress': progress}}})
    assert answer['type'] == 'ack', answer
    return answer['version']


def status(driver):
    return driver.find_element(By.ID, 'status').text


def menu_open(driver):
    return driver.find_element(By.ID, 'menu').get_attribute('hidden') is None


def export_from_menu(driver, format):
    """Opens the export menu with its toolbar button and picks `format`."""
    driver.find_element(By.ID, 'export').click()
    wait(driver, menu_open, 'the export menu did not open')
    driver.find_element(By.CSS_SELECTOR, f'#menu button[data-format="{format}"]').click()


def png_size(data):
    """A PNG's width and height from its IHDR chunk (after checking the signature)."""
    assert data[:8] == PNG_MAGIC, data[:8]
    assert data[12:16] == b'IHDR'
    return struct.unpack('>II', data[16:24])


class ExportTests(BrowserTests):
    """An English browser (alice, the owner) and a German one (carol, a viewer)."""
    languages = ('en-US', 'de-DE')

    def test_each_format_downloads_and_says_what_could_not_be_written(self):
        plan = self.people.plan()
        version = propose_progress(self.server, self.people.tokens[self.people.alice], plan, 'spec', 62.5)
        sign_in(self.a, self.server, self.people.tokens[self.people.alice], plan)
        folder = allow_downloads(self.a)
        # MS Project by keyboard: E opens the menu with its first item focused, Enter picks it.
        press(self.a, 'E')
        wait(self.a, menu_open)
        self.assertEqual([b.text for b in self.a.find_elements(By.CSS_SELECTOR, '#menu button')],
                         ['MS Project XML', 'CSV', 'iCalendar', 'JSON (ChronoSketch)', 'Chart as PNG',
                          'Subscribe in your calendar…'])
        press(self.a, Keys.ENTER)
        xml = downloaded(self.a, folder, f'{plan}.xml')
        self.assertTrue(xml.startswith(b'<?xml'))
        self.assertIn(b'<Project xmlns="http://schemas.microsoft.com/project">', xml)
        self.assertIn(b'Storage layer', xml)
        wait(self.a, lambda d: status(d) == f'Exported {plan}.xml; bookings without a task are not in MS Project files; '
             'progress is rounded to whole percent.')
        self.assertFalse(menu_open(self.a))
        # The others with the mouse.
        export_from_menu(self.a, 'csv')
        csv = downloaded(self.a, folder, f'{plan}.csv')
        self.assertTrue(csv.startswith(b'id,title,kind,parentID,start,end,progress\r\n'))
        self.assertIn(b'\r\nstore,Storage layer,activity,backend,2026-09-21,2026-10-02,30\r\n', csv)
        wait(self.a, lambda d: status(d) == f'Exported {plan}.csv.')
        export_from_menu(self.a, 'ics')
        ics = downloaded(self.a, folder, f'{plan}.ics')
        self.assertTrue(ics.startswith(b'BEGIN:VCALENDAR\r\n'))
        self.assertIn(f'UID:{plan}/store@chronosketch'.encode(), ics)
        export_from_menu(self.a, 'json')
        document = json.loads(downloaded(self.a, folder, f'{plan}.json'))
        self.assertEqual((document['id'], document['version'], len(document['tasks'])), (plan, version, 13))
        self.assertEqual(next(t for t in document['tasks'] if t['id'] == 'spec')['progress'], 62.5)
        wait(self.a, lambda d: status(d) == f'Exported {plan}.json.')
        # The chart as the page shows it: the list and the chart, the rows on screen, at twice the size.
        export_from_menu(self.a, 'png')
        width, height = png_size(downloaded(self.a, folder, f'{plan}.png'))
        shown = self.a.execute_script('const c = document.getElementById("tasks"); return [c.clientWidth, c.clientHeight];')
        rows = min(13, math.ceil((shown[1] - 66) / 28))
        self.assertEqual((width, height), (2 * shown[0], 2 * (66 + 28 * rows)))
        wait(self.a, lambda d: status(d) == f'Exported {plan}.png.')

    def test_a_viewer_exports_the_past_version_shown_in_german(self):
        plan = self.people.plan()
        for progress in (75, 80):
            propose_progress(self.server, self.people.tokens[self.people.alice], plan, 'spec', progress)
        sign_in(self.b, self.server, self.people.tokens[self.people.carol], plan)
        wait(self.b, lambda d: d.find_element(By.ID, 'role').text == 'Rolle: Betrachter')
        folder = allow_downloads(self.b)
        export_from_menu(self.b, 'csv')
        self.assertIn(b'\r\nspec,Specification,activity,design,2026-09-10,2026-09-18,80\r\n', downloaded(self.b, folder, f'{plan}.csv'))
        wait(self.b, lambda d: status(d) == f'{plan}.csv exportiert.')
        self.b.find_element(By.ID, 'export').click()
        wait(self.b, menu_open)
        self.assertEqual([b.text for b in self.b.find_elements(By.CSS_SELECTOR, '#menu button')],
                         ['MS-Project-XML', 'CSV', 'iCalendar', 'JSON (ChronoSketch)', 'Diagramm als PNG',
                          'Im Kalender abonnieren …'])
        press(self.b, Keys.ESCAPE)
        wait(self.b, lambda d: not menu_open(d))
        # Version 1 shown as it was (the history's Show): the exports are of version 1.
        self.b.find_element(By.ID, 'tab-history').click()
        # Clicked inside the wait: the history may be drawn again (its details arriving) between a find and a click.
        wait(self.b, lambda d: d.find_element(By.CSS_SELECTOR, '#history tr[data-version="1"] button').click() or True)
        wait(self.b, lambda d: d.find_element(By.ID, 'historical-text').text == 'Version 1 (nur lesen)')
        export_from_menu(self.b, 'csv')
        self.assertIn(b'\r\nspec,Specification,activity,design,2026-09-10,2026-09-18,75\r\n', downloaded(self.b, folder, f'{plan}-v1.csv'))
        wait(self.b, lambda d: status(d) == f'{plan}-v1.csv exportiert.')
        export_from_menu(self.b, 'json')
        self.assertEqual(json.loads(downloaded(self.b, folder, f'{plan}-v1.json'))['version'], 1)
        export_from_menu(self.b, 'msproject')
        self.assertIn(b'<Title>ChronoSketch launch</Title>', downloaded(self.b, folder, f'{plan}-v1.xml'))
        # Version 1's summary "Design" is at 87.5 %: written whole.
        wait(self.b, lambda d: status(d) == f'{plan}-v1.xml exportiert; Buchungen ohne Aufgabe fehlen in MS-Project-Dateien; '
             'der Fortschritt ist auf ganze Prozent gerundet.')
        export_from_menu(self.b, 'png')
        self.assertGreater(png_size(downloaded(self.b, folder, f'{plan}-v1.png'))[0], 0)
        shot(self.b, 'export-past-version-de')

    def test_subscribe_in_calendar_gives_a_feed_address_that_can_be_stopped(self):
        plan = self.people.plan()
        sign_in(self.b, self.server, self.people.tokens[self.people.carol], plan)
        wait(self.b, lambda d: d.find_element(By.ID, 'role').text == 'Rolle: Betrachter')

        def subscribe():
            self.b.find_element(By.ID, 'export').click()
            wait(self.b, menu_open)
            self.b.find_element(By.ID, 'subscribe-calendar').click()
            return wait(self.b, lambda d: d.find_elements(By.ID, 'feed-url') and d.find_element(By.ID, 'feed-url').get_attribute('value'))

        url = subscribe()
        self.assertRegex(url, rf'^http://127\.0\.0\.1:{self.server.port}/plans/{plan}/calendar\.ics\?key=[A-Za-z0-9_-]{{43}}$')
        self.assertEqual(self.b.find_element(By.ID, 'feed-open').get_attribute('href'), 'webcal:' + url[len('http:'):])
        # A calendar application sends no header: the key alone reads the feed.
        with urllib.request.urlopen(url) as answer:
            self.assertEqual(answer.headers['Content-Type'], 'text/calendar; charset=utf-8')
            self.assertIn(f'UID:{plan}/store@chronosketch'.encode(), answer.read())
        press(self.b, Keys.ESCAPE)
        wait(self.b, lambda d: not menu_open(d))
        self.assertEqual(subscribe(), url)  # the same address on every asking
        shot(self.b, 'calendar-feed-de')
        self.b.find_element(By.ID, 'feed-revoke').click()
        wait(self.b, lambda d: status(d) == 'Die Adresse gilt nicht mehr; ein neues Abonnement erhält eine neue.')
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url)
        self.assertEqual(refused.exception.code, 404)
        self.assertNotEqual(subscribe(), url)

    def test_refusals_and_an_unreachable_server_are_said_in_words(self):
        plan = self.people.plan()
        sign_in(self.a, self.server, self.people.tokens[self.people.alice], plan)
        # The page's own fetch path against the server's refusals: a token not taken, a version
        # outside the history, a plan the user has no role on; each said in words.
        failures = self.a.execute_async_script('''
            const [plan, done] = arguments;
            const token = sessionStorage.getItem('chronosketch.token');
            const { fetchExport } = await import('./js/export-menu.mjs');
            const { failureText } = await import('./js/plan-export.mjs');
            const said = [];
            for (const [who, id, version] of [['not-a-token', plan, null], [token, plan, 99], [token, 'no-such-plan', null]]) {
              try { await fetchExport(who, id, 'csv', version); said.push('downloaded'); }
              catch (error) { said.push([error.failure.status, failureText('en', error.failure)]); }
            }
            done(said);''', plan)
        self.assertEqual(failures, [
            [401, 'Export failed: the token was not accepted (sign in again).'],
            [404, 'Export failed: this plan, or this version of it, is not available to you.'],
            [404, 'Export failed: this plan, or this version of it, is not available to you.'],
        ])
        self.assertEqual(console_errors(self.a, allowed=('status of 401', 'status of 404')), [])
        # A server that went away: the export says so in the status line.
        other = Server()
        try:
            sign_in(self.a, other, self.people.tokens[self.people.alice], plan)
            wait(self.a, lambda d: d.execute_script('return document.body.dataset.preloaded') == 'all')
        finally:
            other.stop()
        wait(self.a, lambda d: 'connected' != d.find_element(By.ID, 'connection').text)
        export_from_menu(self.a, 'csv')
        wait(self.a, lambda d: status(d) == 'Export failed: the server could not be reached.')
        self.assertIn('error', self.a.find_element(By.ID, 'status').get_attribute('class'))
        self.a.get('about:blank')  # no more reconnecting
        self.assertEqual(console_errors(self.a, allowed=('WebSocket connection to', 'ERR_CONNECTION_REFUSED')), [])
