"""ops/bench-web's measurements in headless Chromium (selenium): first render, scrolling frames,
ack to visible (another client's change on the demo plan, and on the big plan a bar moved by a
day with its progress), page weight, the link form on the big plan (open, then keystrokes in its
task picker). Arguments: BASE_URL VIEWER_TOKEN_FILE EDITOR_TOKEN_FILE RUNS SAMPLES. PARTS
(default all: page_weight first_renders scrolling ack_to_visible ack_to_visible_big link_form)
picks some of them; the page weight needs only the demo plan, so it may run alone against any
server."""

import datetime
import json
import os
import statistics
import sys
import threading
import time

import websocket
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

base, viewer_file, editor_file, runs, samples = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
viewer = open(viewer_file).read().strip()
editor = open(editor_file).read().strip()
figures = {}


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(int(len(ordered) * fraction), len(ordered) - 1)]


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = '/usr/bin/chromium'
    for argument in ('--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--window-size=1400,900',
                     '--lang=en-US', '--no-first-run'):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=options)
    driver.set_script_timeout(120)
    return driver


def wait(driver, condition, timeout=120):
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(condition)


def open_plan(driver, plan):
    """Navigates with the token already in sessionStorage; returns ms from navigation to the first full render."""
    driver.get(f'{base}/favicon.svg')
    driver.execute_script('sessionStorage.clear(); sessionStorage.setItem("chronosketch.token", arguments[0])', viewer)
    driver.get(f'{base}/?plan={plan}')
    wait(driver, lambda d: d.execute_script('return performance.getEntriesByName("chronosketch:first-render").length'))
    return driver.execute_script('return performance.getEntriesByName("chronosketch:first-render")[0].startTime')


def first_renders(driver):
    for plan in ('demo', 'big'):
        times = [open_plan(driver, plan) for _ in range(runs)]
        figures[f'first_render_{plan}_cold_ms'] = round(times[0])
        figures[f'first_render_{plan}_warm_median_ms'] = round(statistics.median(times[1:] or times))
        figures[f'first_render_{plan}_runs_ms'] = [round(t) for t in times]


def scrolling(driver):
    open_plan(driver, 'big')
    result = driver.execute_async_script('''
        const done = arguments[arguments.length - 1];
        const scroller = document.getElementById('tasks');
        globalThis.chronosketchFrames = [];
        const intervals = [], busy = [];
        // The main thread's time per frame: from the frame's first callback to the first task after
        // its rendering (style, layout, paint) is done.
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => busy.push(performance.now() - event.data);
        let last = null, count = 0;
        function step(now) {
          channel.port2.postMessage(performance.now());
          if (last !== null) intervals.push(now - last);
          last = now;
          count += 1;
          scroller.scrollTop += 3 * 28;            // three rows a frame: about 5,000 px/s
          if (count % 150 === 0) scroller.scrollLeft += 400;
          if (count < 600) requestAnimationFrame(step);
          else setTimeout(() => done({ intervals, busy, work: globalThis.chronosketchFrames,
                                       rows: document.querySelectorAll('#tasks .row').length,
                                       nodes: document.querySelectorAll('#tasks *').length }), 50);
        }
        requestAnimationFrame(step);''')
    intervals, work, busy = result['intervals'], result['work'], result['busy']
    for name, values in (('frame_interval', intervals), ('frame_main_thread', busy), ('frame_script', work)):
        figures[f'{name}_p50_ms'] = round(percentile(values, 0.5), 1)
        figures[f'{name}_p95_ms'] = round(percentile(values, 0.95), 1)
        figures[f'{name}_p99_ms'] = round(percentile(values, 0.99), 1)
    figures['frames_over_17ms'] = sum(1 for value in intervals if value > 17.5)
    figures['frames'] = len(intervals)
    figures['rows_in_dom'] = result['rows']
    figures['elements_in_chart'] = result['nodes']


def moved(task, days):
    """The task with its schedule `days` later (a bar dragged by a day)."""
    shift = lambda text: (datetime.date.fromisoformat(text) + datetime.timedelta(days=days)).isoformat()
    return dict(task, schedule={'start': shift(task['schedule']['start']), 'end': shift(task['schedule']['end'])})


def ack_to_visible(driver, plan='demo', task_id='spec', name='ack_to_visible'):
    """Another client (a WebSocket of its own) changes a task's progress SAMPLES times, each after
    the last was seen; on the big plan it moves the bar by a day too (forth, then back), so the
    arrows of the task move. From the ack to the first frame showing the new progress in the row."""
    open_plan(driver, plan)
    driver.execute_script('''
        window.benchSeen = [];
        let last = null;
        const observer = new MutationObserver(() => {
          const row = [...document.querySelectorAll('#tasks .row')].find((r) => r.dataset.id === arguments[0]);
          const text = row?.children[3].textContent;
          if (text === undefined || text === last) return;
          last = text;
          requestAnimationFrame(() => window.benchSeen.push([text, performance.timeOrigin + performance.now()]));
        });
        observer.observe(document.querySelector('#tasks .list-body'), { subtree: true, childList: true, characterData: true });''',
        task_id)
    socket = websocket.create_connection(base.replace('http', 'ws') + '/ws', subprotocols=['chronosketch.v1'])
    socket.send(json.dumps({'type': 'hello', 'token': editor, 'client': 'bench-web'}))
    json.loads(socket.recv())
    socket.send(json.dumps({'type': 'subscribe', 'plan': plan}))
    snapshot = None
    while snapshot is None:
        for message in (lambda m: m if isinstance(m, list) else [m])(json.loads(socket.recv())):
            if message['type'] == 'snapshot':
                snapshot = message
    spec = next(task for task in snapshot['tasks'] if task['id'] == task_id)
    version = snapshot['version']
    acks = {}
    deltas = []
    for index in range(samples):
        progress = 1 + index % 99 if spec['progress'] != 1 + index % 99 else 50
        proposed = dict(spec, progress=progress)
        if plan != 'demo':
            proposed = moved(proposed, 1 if index % 2 == 0 else -1)
        socket.send(json.dumps({'type': 'propose', 'id': f'bench-{time.time_ns()}', 'plan': plan, 'baseVersion': version,
                                'op': {'type': 'replace', 'previous': spec, 'proposed': proposed}}))
        while True:
            batch = json.loads(socket.recv())
            batch = batch if isinstance(batch, list) else [batch]
            ack = next((m for m in batch if m['type'] in ('ack', 'rejected')), None)
            if ack:
                break
        at = time.time() * 1000
        if ack['type'] != 'ack':
            raise RuntimeError(f'proposal refused: {ack}')
        version = ack['version']
        spec = proposed
        text = f'{progress} %'
        seen = wait(driver, lambda d: next((t for v, t in d.execute_script('return window.benchSeen') if v == text), None), 10)
        deltas.append(seen - at)
        driver.execute_script('window.benchSeen = []')
    socket.close()
    figures[f'{name}_p50_ms'] = round(percentile(deltas, 0.5), 1)
    figures[f'{name}_p99_ms'] = round(percentile(deltas, 0.99), 1)
    figures[f'{name}_max_ms'] = round(max(deltas), 1)
    figures[f'{name}_samples'] = len(deltas)


def page_weight(driver):
    """The bytes the page fetched, as sent (gzipped where the server gzips: encodedBodySize, bodies
    only) and as the browser unpacked them (decodedBodySize), before its first render and in all.
    Chromium asks for gzip by itself (Accept-Encoding: gzip, deflate)."""
    open_plan(driver, 'demo')
    sizes = '''
        const entries = [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
          .filter((e) => e.startTime < (arguments[0] ?? Infinity));
        return [entries.reduce((sum, e) => sum + e.encodedBodySize, 0),
                entries.reduce((sum, e) => sum + e.decodedBodySize, 0), entries.length];'''
    rendered = driver.execute_script(
        'return performance.getEntriesByName("chronosketch:first-render")[0].startTime')
    at_first = driver.execute_script(sizes, rendered)
    # Everything the page fetches after the first render too (the views and forms plan-view.mjs
    # preloads): once those modules and every module they import are loaded (importing them again
    # fetches nothing). Waiting for help.mjs alone missed the imports of the others still in flight.
    loaded = driver.execute_async_script('''
        const done = arguments[arguments.length - 1];
        Promise.all(['task-forms', 'resources', 'history-view', 'help'].map((name) => import(`/js/${name}.mjs`)))
          .then(() => done(true), (error) => done(String(error)));''')
    if loaded is not True:
        raise RuntimeError(f'the preloaded modules did not load: {loaded}')
    total = driver.execute_script(sizes, None)
    figures['page_bytes_sent_at_first_render'] = at_first[0]
    figures['page_bytes_unpacked_at_first_render'] = at_first[1]
    figures['page_files_at_first_render'] = at_first[2]
    figures['page_bytes_sent_total'] = total[0]
    figures['page_bytes_unpacked_total'] = total[1]
    figures['page_files'] = total[2]


# Times one key from its keydown (the event's timeStamp) to the first task after the frame that
# shows the page's answer: the link form open with its picker (arguments[0] null), or the
# picker holding the text arguments[0] with its list made anew. window.benchKeyMs.
KEY_TIMER = '''
window.benchKeyMs = null;
const expected = arguments[0];
const box = () => document.querySelector('#form-fields [role=combobox]');
const ready = () => (expected === null ? document.getElementById('form-dialog').open && !!box()
  : box().value === expected && document.querySelector('.combobox-note').textContent !== '');
const channel = new MessageChannel(); // its message is the first task after the frame (as in scrolling)
addEventListener('keydown', (event) => {
  const at = event.timeStamp;
  channel.port1.onmessage = () => (window.benchKeyMs = performance.now() - at);
  const check = () => (ready() ? channel.port2.postMessage(0) : requestAnimationFrame(check));
  requestAnimationFrame(check);
}, { capture: true, once: true });'''


def timed_key(driver, key, ready):
    driver.execute_script(KEY_TIMER, ready)
    ActionChains(driver).send_keys(key).perform()
    return wait(driver, lambda d: d.execute_script('return window.benchKeyMs'), 30)


def link_form(driver):
    """`l` on a task of the big plan (forms preloaded) to the form with its picker on screen, RUNS
    times; then keystrokes in the picker: the first (the index is made), a prefix narrowed, a
    title's end found by scanning, and a text no task contains (the whole plan scanned)."""
    open_plan(driver, 'big')
    wait(driver, lambda d: d.execute_script('return document.body.dataset.preloaded') == 'all')
    driver.execute_script('''return [...document.querySelectorAll('#tasks .row .label')]
        .find((label) => label.textContent === 'Task 1.1');''').click()
    wait(driver, lambda d: d.execute_script('return document.querySelector("#tasks .row[aria-selected=true] .label")?.textContent')
         == 'Task 1.1')
    opened = None
    opens = []
    for _ in range(max(runs, 1)):
        opens.append(timed_key(driver, 'l', opened))
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        wait(driver, lambda d: not d.execute_script('return document.getElementById("form-dialog").open'))
    timed_key(driver, 'l', opened)
    driver.execute_script('document.querySelector("#form-fields [role=combobox]").focus()')
    listed = lambda text: text
    keys, typed = [], ''
    for key in 'Task 1234.5':
        typed += key
        keys.append(timed_key(driver, key, listed(typed)))
    figures['link_form_open_first_ms'] = round(opens[0], 1)
    figures['link_form_open_median_ms'] = round(statistics.median(opens), 1)
    figures['link_form_open_max_ms'] = round(max(opens), 1)
    figures['picker_first_keystroke_ms'] = round(keys[0], 1)
    figures['picker_keystroke_median_ms'] = round(statistics.median(keys[1:]), 1)
    figures['picker_keystroke_max_ms'] = round(max(keys[1:]), 1)
    for text, name in (('done', 'picker_contained_keystroke_ms'), ('zz', 'picker_no_match_keystroke_ms')):
        driver.execute_script('const box = document.querySelector("#form-fields [role=combobox]"); box.value = arguments[0];', text[:-1])
        figures[name] = round(timed_key(driver, text[-1], listed(text)), 1)


parts = {'page_weight': page_weight, 'first_renders': first_renders, 'scrolling': scrolling,
         'ack_to_visible': ack_to_visible, 'ack_to_visible_big': lambda driver: ack_to_visible(driver, 'big', 't0-0', 'ack_to_visible_big'),
         'link_form': link_form}
chosen = os.environ.get('PARTS', ' '.join(parts)).split()
unknown = [name for name in chosen if name not in parts]
if unknown:
    sys.exit(f'bench-web.py: unknown PARTS {unknown}; known: {" ".join(parts)}')
driver = browser()
try:
    for name in chosen:
        parts[name](driver)
finally:
    driver.quit()
for name, value in figures.items():
    print(name, value)
print(json.dumps(figures))
