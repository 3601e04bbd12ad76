// One WebSocket session with the plan server (docs/protocol.md §1, §2, §6): hello and welcome,
// messages in (one per frame, or several as a JSON array), reconnecting with a growing, jittered
// delay after any drop, and a liveness check a browser needs because it cannot send pings itself:
// after 25 s of silence it asks for `plans`, and 10 s more of silence end the connection. DOM-free:
// the WebSocket class and the timers are passed in, so node can test it with fakes.

export const SUBPROTOCOL = 'chronosketch.v1';
export const CLIENT_NAME = 'web/0.1.0';

export class Session {
  /**
   * options: { url, token, WebSocket, setTimeout, clearTimeout, random, onState(state), onWelcome(welcome),
   * onMessage(message), onAuthFailed(reason) }. `state`: { kind: 'connecting'|'connected'|'reconnecting',
   * delay, reason }.
   */
  constructor(options) {
    this.options = options;
    this.socket = null;
    this.attempt = 0;
    this.stopped = false;
    this.welcome = null;
    this.timers = { retry: null, silence: null };
    this.silentChecks = 0;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  /** Ends the session for good (sign out, another plan). */
  stop() {
    this.stopped = true;
    this.clearTimers();
    if (this.socket) {
      const socket = this.socket;
      this.socket = null;
      detach(socket);
      socket.close(1000, 'bye');
    }
  }

  /** Reconnects now instead of after the delay (the page's Retry now); nothing while no retry waits. */
  retryNow() {
    if (this.stopped || this.timers.retry === null) return false;
    this.options.clearTimeout(this.timers.retry);
    this.timers.retry = null;
    this.connect();
    return true;
  }

  get connected() {
    return this.welcome !== null && this.socket !== null;
  }

  /** Sends a message now; false when not connected (the caller keeps it for the next welcome). */
  send(message) {
    if (!this.connected) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  connect() {
    const { WebSocket: Socket, url } = this.options;
    this.welcome = null;
    this.authFailed = undefined;
    this.options.onState({ kind: this.attempt === 0 ? 'connecting' : 'reconnecting', reason: this.reason ?? '' });
    let socket;
    try {
      socket = new Socket(url, SUBPROTOCOL);
    } catch (error) {
      this.dropped(String(error?.message ?? error));
      return;
    }
    this.socket = socket;
    socket.onopen = () => socket.send(JSON.stringify({ type: 'hello', token: this.options.token, client: CLIENT_NAME }));
    socket.onmessage = (event) => this.received(event.data);
    socket.onclose = (event) => this.closed(event.code, event.reason);
    socket.onerror = () => {};
  }

  received(data) {
    this.heard();
    let parsed;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      if (!message || typeof message.type !== 'string') continue;
      if (message.type === 'welcome') {
        this.welcome = message;
        this.attempt = 0;
        this.reason = '';
        this.options.onState({ kind: 'connected' });
        this.options.onWelcome(message);
      } else if (message.type === 'error' && message.code === 'unauthenticated') {
        this.authFailed = message.message ?? '';
      } else {
        this.options.onMessage(message);
      }
    }
  }

  heard() {
    this.silentChecks = 0;
    this.armSilence();
  }

  armSilence() {
    const { setTimeout: later, clearTimeout: cancel } = this.options;
    if (this.timers.silence !== null) cancel(this.timers.silence);
    const delay = this.silentChecks === 0 ? 25000 : 10000;
    this.timers.silence = later(() => {
      this.timers.silence = null;
      if (!this.socket) return;
      if (this.silentChecks > 0) {
        this.socket.close(4000, 'no answer');
        this.closed(1006, 'the server stopped answering');
        return;
      }
      this.silentChecks += 1;
      if (this.connected) this.socket.send(JSON.stringify({ type: 'plans', ref: 'alive' }));
      this.armSilence();
    }, delay);
  }

  closed(code, reason) {
    if (!this.socket) return;
    detach(this.socket);
    this.socket = null;
    this.welcome = null;
    if (code === 1008 && this.authFailed !== undefined) {
      this.stopped = true;
      this.clearTimers();
      this.options.onAuthFailed(this.authFailed || reason || '');
      return;
    }
    this.dropped(reason || (code ? `close ${code}` : ''));
  }

  dropped(reason) {
    if (this.stopped) return;
    this.clearTimers();
    this.reason = reason;
    this.attempt += 1;
    // 0.25 s, 0.5 s, 1 s, … at most 8 s, each between half and all of it (jitter).
    const ceiling = Math.min(250 * 2 ** (this.attempt - 1), 8000);
    const delay = Math.round(ceiling / 2 + (this.options.random() * ceiling) / 2);
    this.options.onState({ kind: 'reconnecting', delay, reason });
    this.timers.retry = this.options.setTimeout(() => {
      this.timers.retry = null;
      if (!this.stopped) this.connect();
    }, delay);
  }

  clearTimers() {
    for (const name of Object.keys(this.timers)) {
      if (this.timers[name] !== null) this.options.clearTimeout(this.timers[name]);
      this.timers[name] = null;
    }
  }
}

function detach(socket) {
  socket.onopen = null;
  socket.onmessage = null;
  socket.onclose = null;
  socket.onerror = null;
}
