"""The browser suite's harness: a real plan-server on the tests' PostgreSQL, users and plans made
with its command line, and headless Chromium driven by selenium through Debian's chromedriver.

Environment: DATABASE_URL (required), PLAN_SERVER (default .build/debug/plan-server), WEB_SHOTS
(where screenshots go, default .build/web-screenshots)."""

import json
import os
import random
import signal
import string
import subprocess
import tempfile
import time
import unittest

import websocket
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
SERVER = os.environ.get('PLAN_SERVER', os.path.join(ROOT, '.build', 'debug', 'plan-server'))
SHOTS = os.environ.get('WEB_SHOTS', os.path.join(ROOT, '.build', 'web-screenshots'))
os.makedirs(SHOTS, exist_ok=True)
WAIT = 15  # seconds any single condition may take before the test fails


def suffix():
    return ''.join(random.choice(string.ascii_lowercase + string.digits) for _ in range(8))


def command(*args, stdin=None):
    """Runs `plan-server ARGS` and returns its standard output (raises on failure)."""
    result = subprocess.run([SERVER, *args], input=stdin, capture_output=True, text=True, timeout=60,
                            env={**os.environ})
    if result.returncode != 0:
        raise RuntimeError(f'plan-server {" ".join(args)} failed: {result.stderr.strip()}')
    return result.stdout


class Server:
    """A `plan-server serve` process; `port` 0 picks a free one, `restart` reuses the port."""

    def __init__(self, port=0):
        self.port = port
        self.process = None
        self.log_path = os.path.join(SHOTS, f'server-{suffix()}.log')
        self.start()

    def start(self):
        deadline = time.time() + 20
        while True:
            log = open(self.log_path, 'a')
            self.process = subprocess.Popen(
                [SERVER, 'serve', '--port', str(self.port), '--hello-timeout-seconds', '60'],
                stdout=subprocess.PIPE, stderr=log, text=True)
            line = self.process.stdout.readline()
            if line.startswith('listening on'):
                self.port = int(line.strip().rsplit(':', 1)[1])
                return
            self.process.wait()
            if time.time() > deadline:
                raise RuntimeError(f'the server did not start: {line!r} (log {self.log_path})')
            time.sleep(0.2)  # the killed process's port is being released

    @property
    def url(self):
        return f'http://127.0.0.1:{self.port}'

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


class People:
    """Users made once per run: alice (owner of every plan made), bob (editor), carol (viewer)."""

    def __init__(self):
        tag = suffix()
        self.alice = f'alice-{tag}'
        self.bob = f'bob-{tag}'
        self.carol = f'carol-{tag}'
        self.tokens = {name: command('user', 'add', name).strip().splitlines()[-1]
                       for name in (self.alice, self.bob, self.carol)}

    def plan(self, extra_tasks=(), data=None):
        """A new plan with the demo data (plus `extra_tasks`), or with `data` (the import shape), alice
        owner, bob editor, carol viewer; its id."""
        plan = f'web-{suffix()}'
        if data is None:
            with open(os.path.join(ROOT, 'ops', 'demo-plan.json')) as file:
                data = json.load(file)
        data['tasks'].extend(extra_tasks)
        path = os.path.join(SHOTS, f'{plan}.json')
        with open(path, 'w') as file:
            json.dump(data, file)
        command('plan', 'create', plan, '--import', path)
        command('grant', self.alice, plan, 'owner')
        command('grant', self.bob, plan, 'editor')
        command('grant', self.carol, plan, 'viewer')
        return plan


def request(server, token, message):
    """Sends `message` on a WebSocket of its own as the holder of `token` (an owner's `grant`, say) and
    returns the answer that carries its ref."""
    socket = websocket.create_connection(server.url.replace('http', 'ws', 1) + '/ws', subprotocols=['chronosketch.v1'],
                                         timeout=WAIT)
    try:
        socket.send(json.dumps({'type': 'hello', 'token': token, 'client': 'web-tests'}))
        if json.loads(socket.recv()).get('type') != 'welcome':
            raise RuntimeError('the token was not accepted')
        socket.send(json.dumps({**message, 'ref': 'tests'}))
        while True:
            received = json.loads(socket.recv())
            for answer in received if isinstance(received, list) else [received]:
                if answer.get('ref') == 'tests':
                    return answer
    finally:
        socket.close()


def export(plan):
    return json.loads(command('plan', 'export', plan))


def history(plan):
    return [json.loads(line) for line in command('plan', 'history', plan).splitlines() if line.strip()]


def browser(language='en-US'):
    """A headless Chromium whose preferred language is `language`, logging the console."""
    options = webdriver.ChromeOptions()
    options.binary_location = '/usr/bin/chromium'
    for argument in ('--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--window-size=1400,900',
                     f'--lang={language}', '--disable-gpu', '--no-first-run'):
        options.add_argument(argument)
    options.add_experimental_option('prefs', {'intl.accept_languages': f'{language},{language.split("-")[0]}'})
    options.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    driver = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=options)
    driver.set_script_timeout(WAIT)
    return driver


def wait(driver, condition, message='', timeout=WAIT):
    """Waits for `condition(driver)` to be truthy (explicit waits only; no sleeps)."""
    return WebDriverWait(driver, timeout, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(condition, message)


def sign_in(driver, server, token, plan=None, shown='Storage layer'):
    driver.get(f'{server.url}/')
    driver.execute_script('sessionStorage.clear(); localStorage.clear();')
    driver.get(f'{server.url}/' + (f'?plan={plan}' if plan else ''))
    field = wait(driver, lambda d: d.find_element(By.ID, 'token-input'))
    field.send_keys(token + '\n')
    if plan:
        wait(driver, lambda d: row(d, shown), 'the plan did not open')


def rows(driver):
    """The task rows in the DOM: (title, kind, dates, progress) by index."""
    return driver.execute_script('''
        return [...document.querySelectorAll('#tasks .row')]
          .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
          .map((row) => [...row.children].map((cell) => cell.textContent));''')


def row(driver, title):
    """The row element showing `title` (found in one script, so it cannot go stale midway), or None."""
    return driver.execute_script('''
        return [...document.querySelectorAll('#tasks .row')]
          .find((row) => row.querySelector('.label').textContent === arguments[0]) ?? null;''', title)


def cells(driver, title):
    """The texts of the cells of the row showing `title`, or None."""
    return driver.execute_script('''
        const row = [...document.querySelectorAll('#tasks .row')]
          .find((row) => row.querySelector('.label').textContent === arguments[0]);
        return row ? [...row.children].map((cell) => cell.textContent) : null;''', title)


def allow_downloads(driver):
    """Lets `driver`'s pages download files (an `<a download>`) into a new directory; its path."""
    directory = tempfile.mkdtemp(prefix='downloads-', dir=SHOTS)
    driver.execute_cdp_cmd('Browser.setDownloadBehavior', {'behavior': 'allow', 'downloadPath': directory})
    return directory


def downloaded(driver, directory, name):
    """Waits until `name` is downloaded into `directory` completely; its bytes (the file is removed, so
    that the next download of that name gets it again rather than "name (1)")."""
    path = os.path.join(directory, name)
    wait(driver, lambda d: os.path.exists(path) and not os.path.exists(path + '.crdownload'), f'{name} was not downloaded')
    with open(path, 'rb') as file:
        data = file.read()
    os.remove(path)
    return data


def console_errors(driver, allowed=()):
    """SEVERE console entries since the last call, except those containing an `allowed` text."""
    return [entry['message'] for entry in driver.get_log('browser')
            if entry['level'] == 'SEVERE' and not any(text in entry['message'] for text in allowed)]


def shot(driver, name):
    os.makedirs(SHOTS, exist_ok=True)
    path = os.path.join(SHOTS, f'{name}.png')
    driver.save_screenshot(path)
    return path


class BrowserTests(unittest.TestCase):
    """A server, its people and a browser per entry of `languages` (as `a`, `b`, …) for a test
    class, each checked for console errors after every test."""
    languages = ('en-US', 'en-US')

    @classmethod
    def setUpClass(cls):
        cls.server = Server()
        cls.people = People()
        cls.drivers = [browser(language) for language in cls.languages]
        for name, driver in zip('abcdefgh', cls.drivers):
            setattr(cls, name, driver)

    @classmethod
    def tearDownClass(cls):
        for driver in cls.drivers:
            driver.quit()
        cls.server.stop()

    def tearDown(self):
        for driver in self.drivers:
            self.assertEqual(console_errors(driver), [], 'no console errors')
