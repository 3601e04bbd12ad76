"""Direct manipulation in the web client, confirmed-only (issue 30, item 1), against a real server: a bar
dragged with the mouse (its middle moves it, an end resizes it, a diamond moves), whole days, a ghost
with its dates while dragging and while the proposal waits, the bar where the server last confirmed it
until the answer, exactly one proposal per drop (checked in the stored history); a short press is a
click and Escape cancels; Shift+arrows by keyboard; a stale drop and a scheduleConflict rejected with
the reason beside the bar (and Move to <date>); working days snapped in a plan with a calendar; a
viewer without drags or drag cursors; a booking dragged in the resources view; a long press with a
finger."""

import copy
import json
import os
import sys
import unittest

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
import websocket

sys.path.insert(0, os.path.dirname(__file__))
from harness import BrowserTests, sign_in, wait, cells, shot, export, history, WAIT
from test_web import press, select_row
from test_web_scheduling import CHAIN

DAY = 40  # pixels per day at zoom 1

# Records every proposal the page sends (window.sent); while window.holding, keeps them (window.held)
# until window.release() sends them: the answer cannot come before the test lets it.
RECORDER = '''
window.sent = []; window.held = []; window.holding = false;
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  const message = JSON.parse(data);
  if (message.type === 'propose') {
    window.sent.push(message);
    if (window.holding) { window.held.push([this, data]); return; }
  }
  return send.call(this, data);
};
window.release = () => { window.holding = false; for (const [socket, data] of window.held.splice(0)) send.call(socket, data); };
'''


def propose(server, token, plan, op):
    """Proposes `op` on a WebSocket of its own as the holder of `token`; the ack or rejected."""
    socket = websocket.create_connection(server.url.replace('http', 'ws', 1) + '/ws', subprotocols=['chronosketch.v1'], timeout=WAIT)
    try:
        socket.send(json.dumps({'type': 'hello', 'token': token, 'client': 'web-tests'}))
        socket.recv()
        socket.send(json.dumps({'type': 'propose', 'id': 'tests-1', 'plan': plan, 'baseVersion': 0, 'op': op}))
        while True:
            received = json.loads(socket.recv())
            for answer in received if isinstance(received, list) else [received]:
                if answer.get('id') == 'tests-1' and answer.get('type') in ('ack', 'rejected'):
                    return answer
    finally:
        socket.close()


def sent(driver):
    return driver.execute_script('return window.sent.map((message) => message.op)')


def ghost_texts(driver, view='tasks'):
    return driver.execute_script(f'return [...document.querySelectorAll("#{view} text.ghost-dates")].map((node) => node.textContent)')


def ghosts(driver, view='tasks'):
    """The ghost shapes drawn: [key, waiting] each."""
    return driver.execute_script(f'''return [...document.querySelectorAll("#{view} .ghost")]
        .map((node) => [node.dataset.ghost, node.classList.contains('waiting')])''')


def bar(driver, task, selector='rect.bar'):
    return driver.find_element(By.CSS_SELECTOR, f'#tasks {selector}[data-id="{task}"]')


def bar_x(driver, task):
    return float(bar(driver, task).get_attribute('x'))


def reveal(driver, task, selector='rect.bar'):
    """Scrolls the task chart so that `task`'s mark starts 150 pixels into the chart."""
    shift = driver.execute_script(f'''
        const mark = document.querySelector('#tasks {selector}[data-id="{task}"]');
        const x = Number(mark.getAttribute('x') ?? mark.getBBox().x);
        document.getElementById('tasks').scrollLeft += x - 150;
        return x - 150;''')
    wait(driver, lambda d: abs(d.execute_script(f'''const mark = document.querySelector('#tasks {selector}[data-id="{task}"]');
        return Number(mark.getAttribute('x') ?? mark.getBBox().x)''') - 150) < 1 or abs(shift) < 1, 'not scrolled')


def note(driver, view='tasks'):
    return driver.execute_script(f'return [...document.querySelectorAll("#{view} text.drag-note")].map((n) => n.textContent)')


def dates_of(driver, title):
    return cells(driver, title)[2]


def stored(plan, task_id):
    task = next(t for t in export(plan)['tasks'] if t['id'] == task_id)
    return task.get('schedule') or task.get('date')


def versions(plan):
    return [entry['version'] for entry in history(plan)]


class WebDragTests(BrowserTests):
    languages = ('en-US',)

    def open(self, person, plan, shown='Storage layer'):
        sign_in(self.a, self.server, self.people.tokens[person], plan, shown=shown)
        wait(self.a, lambda d: d.execute_script('return document.body.dataset.preloaded') == 'all', 'modules not preloaded')
        self.a.execute_script(RECORDER)
        if shown == 'Storage layer':
            reveal(self.a, 'store')

    def drag(self, element, dx, dy=0, release=True):
        """Presses `element` at its centre and moves by (dx, dy) in two steps; releases unless told not to.
        `element` may be a function that finds it: then a mark the page drew again just before the
        press (a confirmed change re-renders the row a frame after the list shows it) is found again."""
        for attempt in range(3):
            target = element() if callable(element) else element
            chain = ActionChains(self.a).click_and_hold(target).move_by_offset(2, 0).move_by_offset(dx - 2, dy)
            try:
                (chain.release() if release else chain).perform()
                return
            except StaleElementReferenceException:
                # The press never happened: the element was gone before the first move.
                if not callable(element) or attempt == 2:
                    raise

    def test_a_drop_sends_one_proposal_and_the_bar_stays_where_confirmed_until_the_answer(self):
        a = self.a
        plan = self.people.plan()
        self.open(self.people.alice, plan)
        before = versions(plan)
        x = bar_x(a, 'store')
        self.assertEqual(a.execute_script('return getComputedStyle(arguments[0]).cursor', bar(a, 'store')), 'move')
        edge = bar(a, 'store', 'rect.bar-edge[data-edge="end"]')
        self.assertEqual(a.execute_script('return getComputedStyle(arguments[0]).cursor', edge), 'ew-resize')
        a.execute_script('window.holding = true')
        # While dragging (3 days and a bit to the right): the ghost with its dates, the bar where it was.
        self.drag(bar(a, 'store'), 3 * DAY + 12, 9, release=False)
        wait(a, lambda d: ghost_texts(d) == ['2026-09-24 – 2026-10-04'], 'no ghost with its dates')
        self.assertEqual(ghosts(a), [['store', False]])
        self.assertEqual(bar_x(a, 'store'), x)
        shot(a, 'drag-ghost')
        ActionChains(a).release().perform()
        # Dropped, the proposal held back: the ghost waits beside the bar, which has not moved.
        wait(a, lambda d: ghosts(d) == [['store', True]], 'the ghost does not wait for the answer')
        self.assertEqual(bar_x(a, 'store'), x)
        self.assertEqual(dates_of(a, 'Storage layer'), '2026-09-21 – 2026-10-01')
        self.assertEqual(len(sent(a)), 1)
        self.assertEqual(sent(a)[0]['previous']['schedule'], {'start': '2026-09-21', 'end': '2026-10-02'})
        self.assertEqual(versions(plan), before, 'nothing confirmed before the proposal is sent')
        a.execute_script('window.release()')
        wait(a, lambda d: dates_of(d, 'Storage layer') == '2026-09-24 – 2026-10-04', 'the confirmed dates are not shown')
        wait(a, lambda d: ghosts(d) == [] and d.find_element(By.ID, 'status').text == 'Saved.')
        self.assertEqual(bar_x(a, 'store'), x + 3 * DAY)
        after = history(plan)
        self.assertEqual(len(after), len(before) + 1, 'exactly one version')
        self.assertEqual(after[0]['op']['type'], 'replace')
        self.assertEqual(after[0]['op']['proposed']['schedule'], {'start': '2026-09-24', 'end': '2026-10-05'})
        self.assertEqual(len(sent(a)), 1, 'exactly one proposal')

    def test_ends_resize_a_diamond_moves_a_click_is_no_move_escape_cancels_summaries_stay(self):
        a = self.a
        plan = self.people.plan()
        self.open(self.people.alice, plan)
        # The end two days later, the start one day earlier.
        self.drag(lambda: bar(a, 'store', 'rect.bar-edge[data-edge="end"]'), 2 * DAY)
        wait(a, lambda d: dates_of(d, 'Storage layer') == '2026-09-21 – 2026-10-03' and ghosts(d) == [])
        self.drag(lambda: bar(a, 'store', 'rect.bar-edge[data-edge="start"]'), -DAY)
        wait(a, lambda d: dates_of(d, 'Storage layer') == '2026-09-20 – 2026-10-03')
        self.assertEqual(stored(plan, 'store'), {'start': '2026-09-20', 'end': '2026-10-04'})
        # A diamond, a day later.
        reveal(a, 'beta', 'path.milestone')
        self.drag(lambda: bar(a, 'beta', 'path.milestone'), DAY)
        wait(a, lambda d: dates_of(d, 'Beta') == '2026-10-27')
        self.assertEqual(len(sent(a)), 3)
        # A press that moves 2 pixels is a click: it selects, nothing is proposed.
        reveal(a, 'server')
        ActionChains(a).click_and_hold(bar(a, 'server')).move_by_offset(2, 0).release().perform()
        wait(a, lambda d: d.execute_script('return document.querySelector("#tasks .row[aria-selected=true] .label").textContent') == 'Plan server')
        # Escape in the middle of a drag: the ghost goes, nothing is proposed, the release does nothing.
        self.drag(bar(a, 'server'), 4 * DAY, release=False)
        wait(a, lambda d: ghost_texts(d) == ['2026-10-02 – 2026-10-19'])
        ActionChains(a).send_keys(Keys.ESCAPE).perform()
        wait(a, lambda d: ghosts(d) == [], 'Escape did not cancel')
        ActionChains(a).move_by_offset(DAY, 0).release().perform()
        self.assertEqual(ghosts(a), [])
        # A summary's bar (its dates are derived) does not drag.
        summary = a.find_element(By.CSS_SELECTOR, '#tasks rect.summary-bar[data-id="backend"]')
        self.assertEqual(a.execute_script('return getComputedStyle(arguments[0]).cursor', summary), 'auto')
        self.drag(summary, 3 * DAY)
        self.assertEqual(ghosts(a), [])
        self.assertEqual(len(sent(a)), 3, 'no proposal from a click, a cancelled drag or a summary')
        self.assertEqual(stored(plan, 'server'), {'start': '2026-09-28', 'end': '2026-10-16'})

    def test_shift_arrows_move_by_a_day_and_propose_once_shift_is_released(self):
        a = self.a
        plan = self.people.plan()
        self.open(self.people.alice, plan)
        select_row(a, 'Storage layer')
        a.execute_script('window.holding = true')
        ActionChains(a).key_down(Keys.SHIFT).send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT).perform()
        wait(a, lambda d: ghost_texts(d) == ['2026-09-23 – 2026-10-03'], 'no ghost two days later')
        self.assertEqual(sent(a), [], 'nothing proposed while Shift is held')
        ActionChains(a).key_up(Keys.SHIFT).perform()
        wait(a, lambda d: len(sent(d)) == 1 and ghosts(d) == [['store', True]])
        # A second move while the first waits is not started (it would be judged stale): the page says so.
        ActionChains(a).key_down(Keys.SHIFT).send_keys(Keys.ARROW_RIGHT).key_up(Keys.SHIFT).perform()
        wait(a, lambda d: 'still waiting' in d.find_element(By.ID, 'status').text)
        a.execute_script('window.release()')
        wait(a, lambda d: dates_of(d, 'Storage layer') == '2026-09-23 – 2026-10-03' and ghosts(d) == [])
        # Shift+Alt+←: the end a day earlier; Escape cancels a keyboard drag.
        ActionChains(a).key_down(Keys.SHIFT).key_down(Keys.ALT).send_keys(Keys.ARROW_LEFT).key_up(Keys.ALT).key_up(Keys.SHIFT).perform()
        wait(a, lambda d: dates_of(d, 'Storage layer') == '2026-09-23 – 2026-10-02')
        ActionChains(a).key_down(Keys.SHIFT).send_keys(Keys.ARROW_LEFT).perform()
        wait(a, lambda d: ghost_texts(d) == ['2026-09-22 – 2026-10-01'])
        ActionChains(a).send_keys(Keys.ESCAPE).key_up(Keys.SHIFT).perform()
        wait(a, lambda d: ghosts(d) == [])
        self.assertEqual(len(sent(a)), 2)
        self.assertEqual(stored(plan, 'store'), {'start': '2026-09-23', 'end': '2026-10-03'})
        # The help names the keys and the gestures.
        press(a, '?')
        terms = wait(a, lambda d: [dt.text for dt in d.find_elements(By.CSS_SELECTOR, '#help-keys dt')])
        self.assertTrue({'Shift+← →', 'Shift+Alt+← →', 'Drag'} <= set(terms), terms)
        a.find_element(By.ID, 'help-close').click()

    def test_a_stale_drop_is_rejected_with_its_reason_beside_the_bar(self):
        a = self.a
        plan = self.people.plan()
        self.open(self.people.alice, plan)
        x = bar_x(a, 'store')
        a.execute_script('window.holding = true')
        self.drag(bar(a, 'store'), 2 * DAY)
        wait(a, lambda d: ghosts(d) == [['store', True]])
        # Meanwhile bob changes its progress: the drop names the task as alice held it.
        held = next(t for t in export(plan)['tasks'] if t['id'] == 'store')
        answer = propose(self.server, self.people.tokens[self.people.bob], plan,
                         {'type': 'replace', 'previous': held, 'proposed': {**held, 'progress': 45}})
        self.assertEqual(answer['type'], 'ack')
        wait(a, lambda d: cells(d, 'Storage layer')[3] == '45 %')
        a.execute_script('window.release()')
        wait(a, lambda d: note(d) == ['The task was changed or removed in the meantime.'], 'no reason beside the bar')
        self.assertEqual(ghosts(a), [])
        self.assertEqual(bar_x(a, 'store'), x)
        text = a.find_element(By.CSS_SELECTOR, '#tasks text.drag-note')
        self.assertGreater(float(text.get_attribute('x')), x + float(bar(a, 'store').get_attribute('width')), 'beside the bar')
        wait(a, lambda d: d.find_element(By.ID, 'status').text.startswith('Rejected: The task was changed'))
        shot(a, 'drag-rejected')
        self.assertEqual(stored(plan, 'store'), {'start': '2026-09-21', 'end': '2026-10-02'})
        # The next drag takes the note away.
        self.drag(bar(a, 'store'), DAY)
        wait(a, lambda d: dates_of(d, 'Storage layer') == '2026-09-22 – 2026-10-02' and note(d) == [])


    def test_working_days_snap_and_a_schedule_conflict_is_said_beside_the_bar_and_moved_in_one_click(self):
        a = self.a
        data = copy.deepcopy(CHAIN)
        # Test starts a day after its earliest (build → test is start-to-start +3: Monday the 14th).
        data['tasks'][2]['schedule'] = {'start': '2026-09-15', 'end': '2026-09-17'}
        data['tasks'][3]['date'] = '2026-09-17'
        plan = self.people.plan(data=data)
        self.open(self.people.alice, plan, shown='Side work')
        # Side work (Monday 7th) five days later is Saturday: the ghost snaps on to Monday the 14th.
        self.drag(bar(a, 'side'), 5 * DAY, release=False)
        wait(a, lambda d: ghost_texts(d) == ['2026-09-14 – 2026-09-14'], 'not snapped to a working day')
        ActionChains(a).release().perform()
        wait(a, lambda d: dates_of(d, 'Side work') == '2026-09-14 – 2026-09-14')
        self.assertEqual(stored(plan, 'side'), {'start': '2026-09-14', 'end': '2026-09-15'})
        # Test four days earlier (Friday 11th): rejected, the reason beside the bar, and Move to the earliest day.
        x = bar_x(a, 'test')
        self.drag(bar(a, 'test'), -4 * DAY)
        expected = '“Test” cannot start before 2026-09-14: a dependency does not allow an earlier date.'
        wait(a, lambda d: note(d) == [expected], 'the conflict is not said beside the bar')
        self.assertEqual(ghosts(a), [])
        self.assertEqual(bar_x(a, 'test'), x)
        fix = a.find_element(By.CSS_SELECTOR, '#tasks text.drag-fix')
        shot(a, 'drag-conflict')
        self.assertEqual(fix.text, 'Move to 2026-09-14')
        fix.click()
        wait(a, lambda d: dates_of(d, 'Test') == '2026-09-14 – 2026-09-15' and note(d) == [], 'not moved to the earliest day')
        self.assertEqual(stored(plan, 'test'), {'start': '2026-09-14', 'end': '2026-09-16'})
        self.assertEqual([op['type'] for op in sent(a)], ['replace', 'replace', 'replace'])

    def test_a_viewer_cannot_drag_and_sees_no_drag_cursor(self):
        a = self.a
        plan = self.people.plan()
        self.open(self.people.carol, plan)
        wait(a, lambda d: d.find_element(By.ID, 'role').text == 'role: viewer')
        store = bar(a, 'store')
        self.assertEqual(a.execute_script('return getComputedStyle(arguments[0]).cursor', store), 'default')
        self.assertFalse(bar(a, 'store', 'rect.bar-edge[data-edge="end"]').is_displayed())
        self.drag(store, 2 * DAY, release=False)
        self.assertEqual(ghosts(a), [])
        ActionChains(a).release().perform()
        select_row(a, 'Storage layer')
        ActionChains(a).key_down(Keys.SHIFT).send_keys(Keys.ARROW_RIGHT).key_up(Keys.SHIFT).perform()
        wait(a, lambda d: d.find_element(By.ID, 'status').text == 'Rejected: You may not edit this plan.')
        self.assertEqual(ghosts(a), [])
        self.assertEqual(sent(a), [], 'a viewer proposes nothing')
        self.assertEqual(stored(plan, 'store'), {'start': '2026-09-21', 'end': '2026-10-02'})

    def test_a_booking_drags_with_a_ghost_waits_for_its_answer_and_moves_by_keys(self):
        a = self.a
        plan = self.people.plan()
        self.open(self.people.alice, plan)
        press(a, 'v')
        entry = lambda d: d.find_element(By.CSS_SELECTOR, '#resources rect.entry[data-assignment="a-kickoff"]')
        wait(a, lambda d: 'Loading' not in d.find_element(By.CSS_SELECTOR, '#resources .corner').text and entry(d))
        x = float(entry(a).get_attribute('x'))
        a.execute_script('window.holding = true')
        self.drag(entry(a), DAY, release=False)
        wait(a, lambda d: ghost_texts(d, 'resources') == ['2026-09-08 09:00 – 2026-09-08 12:30'], 'no ghost with its times')
        ActionChains(a).release().perform()
        wait(a, lambda d: ghosts(d, 'resources') == [['a-kickoff', True]])
        shot(a, 'drag-booking-waiting')
        self.assertEqual(float(entry(a).get_attribute('x')), x, 'the booking stays where it was confirmed')
        kickoff = lambda: next(e for e in export(plan)['entries'] if e['id'] == 'kickoff')
        self.assertEqual(kickoff()['start'], '2026-09-07T09:00')
        a.execute_script('window.release()')
        wait(a, lambda d: ghosts(d, 'resources') == [] and abs(float(entry(d).get_attribute('x')) - x - DAY) < 0.5, 'not moved')
        self.assertEqual((kickoff()['start'], kickoff()['end']), ('2026-09-08T09:00', '2026-09-08T12:30'))
        # By keys: Shift+→ twice is half an hour at one day per column, one proposal when Shift is released.
        ActionChains(a).key_down(Keys.SHIFT).send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT).perform()
        wait(a, lambda d: ghost_texts(d, 'resources') == ['2026-09-08 09:30 – 2026-09-08 13:00'])
        ActionChains(a).key_up(Keys.SHIFT).perform()
        wait(a, lambda d: kickoff()['start'] == '2026-09-08T09:30' and ghosts(d, 'resources') == [])
        # A stale drop: bob renames it meanwhile; the reason shows beside the booking.
        a.execute_script('window.holding = true')
        self.drag(entry(a), DAY)
        wait(a, lambda d: ghosts(d, 'resources') == [['a-kickoff', True]])
        held = kickoff()
        original = {'entry': held, 'assignment': {'id': 'a-kickoff', 'entryID': 'kickoff', 'resourceID': 'room-aurora'}}
        renamed = {'entry': {**held, 'title': 'Kick-off'}, 'assignment': original['assignment']}
        self.assertEqual(propose(self.server, self.people.tokens[self.people.bob], plan,
                                 {'type': 'timeline.apply', 'original': original, 'proposed': renamed})['type'], 'ack')
        a.execute_script('window.release()')
        wait(a, lambda d: note(d, 'resources') == ['The entry was changed in the meantime.'], 'no reason beside the booking')
        self.assertEqual(ghosts(a, 'resources'), [])
        self.assertEqual(len(sent(a)), 3)

    def test_a_finger_drags_after_a_long_press_and_scrolls_without_one(self):
        a = self.a
        plan = self.people.plan()
        self.open(self.people.alice, plan)

        def touch(element, dx, hold):
            finger = ActionBuilder(a, mouse=PointerInput(interaction.POINTER_TOUCH, 'finger'))
            finger.pointer_action.move_to(element).pointer_down()
            if hold:
                finger.pointer_action.pause(0.8)  # the long press itself
            finger.pointer_action.move_by(dx // 2, 0).move_by(dx - dx // 2, 0).pointer_up()
            finger.perform()

        touch(bar(a, 'store'), -2 * DAY, hold=False)
        touch(bar(a, 'store'), 2 * DAY, hold=True)
        wait(a, lambda d: dates_of(d, 'Storage layer') == '2026-09-23 – 2026-10-03', 'the long press did not drag')
        self.assertEqual(len(sent(a)), 1, 'a finger that moves at once does not drag')


if __name__ == '__main__':
    unittest.main()
