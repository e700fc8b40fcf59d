// protocol.mjs: JSON-RPC 2.0 over newline-delimited JSON on stdin/stdout
// (PROTOCOL.md "Transport", "Errors", "Timeouts and cancellation").
// It frames messages, routes requests to a handler, keeps the host's own
// requests (approval/request) and their answers, and turns $/cancelRequest
// into an AbortSignal of the request it names.

export const ErrorCodes = Object.freeze({
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  requestCancelled: -32800,
  portFailure: -32001,
  notInitialized: -32002,
  unknownOutcome: -32010,
});

/** An error answered as a JSON-RPC error object. */
export class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** Maximum length of one incoming line (PROTOCOL.md "Limits"). */
const MAX_LINE = 64 * 1024 * 1024;

/**
 * Connection reads requests from input, hands each to handler(method, params,
 * {signal, id}) and writes its answer; notifications get none.
 */
export class Connection {
  constructor(input, output, handler, log = () => {}) {
    this.input = input;
    this.output = output;
    this.handler = handler;
    this.log = log;
    this.nextId = 1;
    this.pending = new Map(); // our requests: id -> {resolve}
    this.inFlight = new Map(); // their requests: id -> AbortController
    this.closed = false;
    this.onClose = null;
  }

  /** Starts reading; resolves when the input ends. */
  run() {
    return new Promise((resolve) => {
      let buf = '';
      this.input.setEncoding('utf8');
      this.input.on('data', (chunk) => {
        buf += chunk;
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          this.#receive(line);
        }
        if (buf.length > MAX_LINE) {
          this.log(`input line over ${MAX_LINE} bytes; dropped`);
          buf = '';
        }
      });
      this.input.on('end', () => {
        if (buf.trim() !== '') this.#receive(buf);
        this.closed = true;
        for (const p of this.pending.values()) p.resolve({ error: { code: -32603, message: 'connection closed' } });
        this.pending.clear();
        resolve();
      });
    });
  }

  /** Writes one message as one line. */
  send(msg) {
    if (this.closed && this.output.destroyed) return;
    this.output.write(`${JSON.stringify(msg)}\n`);
  }

  /**
   * Sends a request of the host and resolves with {result} or {error}.
   * timeoutMs bounds the wait ({timeout: true}) and signal cancels it
   * ({cancelled: true}); either way the host sends $/cancelRequest for it.
   */
  request(method, params, timeoutMs, signal) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const giveUp = (answer) => {
        if (!this.pending.has(id)) return;
        this.pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.send({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } });
        resolve(answer);
      };
      const onAbort = () => giveUp({ cancelled: true });
      const timer = setTimeout(() => giveUp({ timeout: true }), timeoutMs);
      this.pending.set(id, {
        resolve: (answer) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      this.send({ jsonrpc: '2.0', id, method, params });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #receive(line) {
    if (line.trim() === '') return;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      this.send({ jsonrpc: '2.0', id: null, error: { code: ErrorCodes.parseError, message: 'Parse error: a line is not JSON.' } });
      return;
    }
    if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
      this.send({ jsonrpc: '2.0', id: null, error: { code: ErrorCodes.invalidRequest, message: 'Invalid request: not an object.' } });
      return;
    }
    if (msg.method === undefined && (Object.hasOwn(msg, 'result') || Object.hasOwn(msg, 'error'))) {
      const p = this.pending.get(msg.id);
      if (p) {
        this.pending.delete(msg.id);
        p.resolve(Object.hasOwn(msg, 'error') ? { error: msg.error } : { result: msg.result });
      }
      return;
    }
    if (typeof msg.method !== 'string') {
      if (msg.id !== undefined) this.send({ jsonrpc: '2.0', id: msg.id, error: { code: ErrorCodes.invalidRequest, message: 'Invalid request: no method.' } });
      return;
    }
    if (msg.method === '$/cancelRequest') {
      const ctl = this.inFlight.get(msg.params?.id);
      if (ctl) ctl.abort();
      return;
    }
    const isRequest = msg.id !== undefined && msg.id !== null;
    if (!isRequest) return; // no other notification is defined
    const ctl = new AbortController();
    this.inFlight.set(msg.id, ctl);
    Promise.resolve()
      .then(() => this.handler(msg.method, msg.params ?? {}, { signal: ctl.signal, id: msg.id }))
      .then(
        (result) => this.send({ jsonrpc: '2.0', id: msg.id, result }),
        (err) => {
          if (!(err instanceof RpcError)) this.log(`internal error in ${msg.method}: ${err?.stack ?? err}`);
          const error = err instanceof RpcError
            ? { code: err.code, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) }
            : { code: ErrorCodes.internalError, message: `Internal error: ${err?.message ?? err}` };
          this.send({ jsonrpc: '2.0', id: msg.id, error });
        },
      )
      .finally(() => this.inFlight.delete(msg.id));
  }
}
