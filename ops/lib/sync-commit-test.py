"""The synchronous-commit hazard end to end (run by ops/test-sync-commit, which starts a primary, a
synchronous standby and a plan-server on the primary): arguments SERVE_PORT TOKEN PRIMARY_URL
STANDBY_URL. Every wait is for a condition (a message, a row in pg_stat_activity), with a deadline."""

import json
import os
import signal
import subprocess
import sys
import time

import websocket

PORT, TOKEN, PRIMARY, STANDBY = sys.argv[1:5]
PLAN, PROPOSAL = 'demo', 'sync-hazard-1'


def sql(url, query):
    return subprocess.run(['psql', url, '-Atqc', query], capture_output=True, text=True, check=True).stdout.strip()


def until(condition, what, seconds=30):
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            sys.exit(f'FAIL: {what} (waited {seconds} s)')
        time.sleep(0.05)


class Client:
    def __init__(self, name):
        self.socket = websocket.create_connection(f'ws://127.0.0.1:{PORT}/ws', subprotocols=['chronosketch.v1'], timeout=30)
        self.pending = []
        self.send({'type': 'hello', 'token': TOKEN, 'client': name})
        assert self.next()['type'] == 'welcome'

    def send(self, message):
        self.socket.send(json.dumps(message))

    def next(self):
        while not self.pending:
            received = json.loads(self.socket.recv())
            self.pending = received if isinstance(received, list) else [received]
        return self.pending.pop(0)

    def first(self, match, what):
        while True:
            message = self.next()
            if match(message):
                return message
            if message.get('type') in ('confirmed', 'ack') and not what.startswith('confirmed'):
                sys.exit(f'FAIL: {message["type"]} while waiting for {what}: {message}')

    def arrived(self):
        """Every message already received (without waiting for more)."""
        self.socket.settimeout(0.2)
        try:
            while True:
                received = json.loads(self.socket.recv())
                self.pending += received if isinstance(received, list) else [received]
        except websocket.WebSocketTimeoutException:
            pass
        finally:
            self.socket.settimeout(30)
        arrived, self.pending = self.pending, []
        return arrived


def waiting_for_standby():
    return sql(PRIMARY, "SELECT string_agg(pid::text, ',') FROM pg_stat_activity WHERE wait_event = 'SyncRep'")


viewer = Client('viewer')
viewer.send({'type': 'subscribe', 'plan': PLAN})
snapshot = viewer.first(lambda m: m['type'] == 'snapshot', 'snapshot')
spec = next(task for task in snapshot['tasks'] if task['id'] == 'spec')
editor = Client('editor')
proposal = {'type': 'propose', 'id': PROPOSAL, 'plan': PLAN, 'baseVersion': snapshot['version'],
            'op': {'type': 'replace', 'previous': spec, 'proposed': {**spec, 'title': 'Specification (replicated)'}}}

receiver = int(until(lambda: sql(STANDBY, 'SELECT pid FROM pg_stat_wal_receiver'), 'the standby streams'))
os.kill(receiver, signal.SIGSTOP)
try:
    editor.send(proposal)
    commit = until(waiting_for_standby, 'the commit waits for the standby')
    sql(PRIMARY, f'SELECT pg_cancel_backend({commit})')
    answer = editor.first(lambda m: m.get('id') == PROPOSAL, 'the proposal\'s answer')
    if answer['type'] != 'rejected' or answer['code'] != 'unavailable':
        sys.exit(f'FAIL: a commit only the primary holds was answered {answer}')
    print(f'the cancelled wait: {answer["type"]} {answer["code"]} ({answer["message"]})')
    # The primary shows the version; the server reads it only once the standby has it: its read
    # waits for the standby too, and no viewer has been sent the version meanwhile.
    until(lambda: waiting_for_standby() and waiting_for_standby() != commit, 'the log read waits for the standby')
    assert sql(PRIMARY, f"SELECT count(*) FROM mutations WHERE proposal_id = '{PROPOSAL}'") == '1'
    early = [m for m in viewer.arrived() + editor.arrived() if m.get('type') in ('confirmed', 'ack')]
    if early:
        sys.exit(f'FAIL: sent while only the primary held it: {early}')
finally:
    os.kill(receiver, signal.SIGCONT)

confirmed = viewer.first(lambda m: m['type'] == 'confirmed', 'confirmed after the standby resumed')
assert (confirmed['version'], confirmed['mutation']['id']) == (1, PROPOSAL), confirmed
editor.send(proposal)  # the retry, with the same id
ack = editor.first(lambda m: m.get('id') == PROPOSAL, 'the retry\'s answer')
assert (ack['type'], ack['version']) == ('ack', 1), ack
assert sql(PRIMARY, f"SELECT count(*) FROM mutations WHERE proposal_id = '{PROPOSAL}'") == '1'
assert sql(PRIMARY, f"SELECT count(*) FROM decisions WHERE proposal_id = '{PROPOSAL}'") == '1'
until(lambda: sql(STANDBY, f"SELECT count(*) FROM mutations WHERE proposal_id = '{PROPOSAL}'") == '1',
      'the standby has the mutation')
print('after the standby resumed: the viewer saw version 1 once, the retry was acked once, one mutation on both nodes')
