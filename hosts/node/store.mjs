// store.mjs: everything the host keeps in storeDir (PROTOCOL.md "store/put,
// store/get, store/list", "trace/append, trace/flush, trace/list",
// "Fresh-host resume"; CONTRACTS.md "Store and trace documents").
// Layout under storeDir:
//   store/<sha256(runId)>/<kind>/<sequence>.json   checkpoint store
//   trace/<sha256(runId)>.jsonl                      durable trace, one event a line
//   idempotency/<sha256(canonicalId NUL key)>.json   recorded envelopes
//   tasks/<sha256(runId)>.json                       task.checkpoint state
//   spill/                                           complete command output
import fs from 'node:fs';
import path from 'node:path';
import { PortError, readJSON, sha256, writeFileDurable, fsyncDir } from './fsutil.mjs';

const KINDS = new Set(['checkpoint', 'final_report']);

/** Store is the file-backed store, trace, idempotency record and task state of one storeDir. */
export class Store {
  constructor(dir) {
    this.dir = dir;
    for (const sub of ['store', 'trace', 'idempotency', 'tasks', 'spill']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
    this.traceIndex = null; // loaded lazily: eventIds and last sequences across processes
    this.unflushed = new Set(); // trace files appended to since the last flush
    this.queue = Promise.resolve();
  }

  /** Runs fn after every earlier serialized operation (puts and appends are ordered). */
  serialize(fn) {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => {});
    return next;
  }

  #runDir(runId, kind) {
    return path.join(this.dir, 'store', sha256(runId), kind);
  }

  #entries(runId, kind) {
    const dir = this.#runDir(runId, kind);
    let names;
    try {
      names = fs.readdirSync(dir);
    } catch (err) {
      if (err.code === 'ENOENT') return [];
      throw new PortError('IO_ERROR', `Cannot read the store: ${err.message}`);
    }
    const seqs = names.filter((n) => /^[0-9]+\.json$/.test(n)).map((n) => Number.parseInt(n, 10)).sort((a, b) => a - b);
    return seqs.map((seq) => readJSON(path.join(dir, `${seq}.json`)));
  }

  static #check(runId, kind) {
    if (typeof runId !== 'string' || runId === '') throw new PortError('INVALID_INPUT', 'runId must be a non-empty string.');
    if (!KINDS.has(kind)) throw new PortError('INVALID_INPUT', `Unknown store kind '${kind}'.`);
  }

  /** store/put: acknowledged only once the document is durable. */
  put(runId, kind, document) {
    return this.serialize(() => {
      Store.#check(runId, kind);
      if (document === null || typeof document !== 'object' || Array.isArray(document)) {
        throw new PortError('INVALID_INPUT', 'A store document must be a JSON object.');
      }
      const sequence = this.#entries(runId, kind).length + 1;
      const artifactRef = typeof document.contentHash === 'string' && kind === 'checkpoint'
        ? `node-checkpoint://${sha256(runId)}/${document.contentHash}`
        : `node-store://${sha256(runId)}/${kind}/${sequence}`;
      const entry = { sequence, artifactRef, document };
      try {
        writeFileDurable(path.join(this.#runDir(runId, kind), `${sequence}.json`), JSON.stringify(entry));
      } catch (err) {
        throw new PortError('IO_ERROR', `Cannot write the store: ${err.message}`);
      }
      return { sequence, artifactRef };
    });
  }

  /** store/get: the latest document or null. */
  get(runId, kind) {
    Store.#check(runId, kind);
    const all = this.#entries(runId, kind);
    return { document: all.length ? all[all.length - 1].document : null };
  }

  /** store/list: every entry in put order. */
  list(runId, kind) {
    Store.#check(runId, kind);
    return { entries: this.#entries(runId, kind) };
  }

  #traceFile(runId) {
    return path.join(this.dir, 'trace', `${sha256(runId)}.jsonl`);
  }

  #loadTraceIndex() {
    if (this.traceIndex) return this.traceIndex;
    const index = { eventIds: new Set(), last: new Map(), count: 0 };
    const dir = path.join(this.dir, 'trace');
    for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort()) {
      for (const ev of readEvents(path.join(dir, name))) {
        index.eventIds.add(ev.eventId);
        index.last.set(seqKey(ev), ev.sequence);
        index.count++;
      }
    }
    this.traceIndex = index;
    return index;
  }

  /** trace/append: checks the ordering rules across host processes, then appends. */
  append(event) {
    return this.serialize(() => {
      if (event === null || typeof event !== 'object') throw new PortError('INVALID_INPUT', 'A trace event must be an object.');
      if (event.payload === null || typeof event.payload !== 'object' || Array.isArray(event.payload)) {
        throw new PortError('INVALID_INPUT', 'A trace event payload must be an object.');
      }
      if (typeof event.timestamp !== 'string' || Number.isNaN(Date.parse(event.timestamp))) {
        throw new PortError('INVALID_INPUT', `Trace event timestamp is not a date: '${event.timestamp}'.`);
      }
      const index = this.#loadTraceIndex();
      if (index.eventIds.has(event.eventId)) throw new PortError('CONFLICT', `Trace event '${event.eventId}' was already appended.`);
      const key = seqKey(event);
      const last = index.last.get(key);
      if (last !== undefined && !(event.sequence > last)) {
        throw new PortError('CONFLICT', `Trace sequence ${event.sequence} is not above ${last} for this run, task and execution.`);
      }
      const file = this.#traceFile(event.runId);
      try {
        fs.appendFileSync(file, `${JSON.stringify(event)}\n`);
      } catch (err) {
        throw new PortError('IO_ERROR', `Cannot append to the trace: ${err.message}`);
      }
      this.unflushed.add(file);
      index.eventIds.add(event.eventId);
      index.last.set(key, event.sequence);
      index.count++;
      return {};
    });
  }

  /** trace/flush: fsyncs every trace file appended to. */
  flush() {
    return this.serialize(() => {
      const index = this.#loadTraceIndex();
      try {
        for (const file of this.unflushed) {
          const fd = fs.openSync(file, 'r+');
          try {
            fs.fsyncSync(fd);
          } finally {
            fs.closeSync(fd);
          }
        }
        if (this.unflushed.size) fsyncDir(path.join(this.dir, 'trace'));
      } catch (err) {
        throw new PortError('IO_ERROR', `Cannot flush the trace: ${err.message}`);
      }
      this.unflushed.clear();
      return { durableEvents: index.count };
    });
  }

  /** trace/list: the run's events in append order. */
  traceList(runId) {
    return { events: readEvents(this.#traceFile(runId)) };
  }

  /** The envelope recorded for (canonicalId, key), or undefined. */
  recalled(canonicalId, key) {
    return readJSON(path.join(this.dir, 'idempotency', `${sha256(`${canonicalId}\0${key}`)}.json`));
  }

  /** Records a successful envelope for (canonicalId, key), durably. */
  record(canonicalId, key, envelope) {
    writeFileDurable(path.join(this.dir, 'idempotency', `${sha256(`${canonicalId}\0${key}`)}.json`), JSON.stringify(envelope));
  }

  /** The task.checkpoint state of a run, or undefined. */
  taskState(runId) {
    return readJSON(path.join(this.dir, 'tasks', `${sha256(runId)}.json`));
  }

  /** Saves the task.checkpoint state of a run durably. */
  saveTaskState(runId, state) {
    writeFileDurable(path.join(this.dir, 'tasks', `${sha256(runId)}.json`), JSON.stringify(state));
  }

  /** The directory spill files go to. */
  get spillDir() {
    return path.join(this.dir, 'spill');
  }
}

function seqKey(ev) {
  return JSON.stringify([ev.runId, ev.taskId, ev.executionId]);
}

function readEvents(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') return [];
    throw new PortError('IO_ERROR', `Cannot read the trace: ${err.message}`);
  }
  const events = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      events.push(JSON.parse(line));
    } catch {
      // a torn last line of a crashed process is not an accepted event
    }
  }
  return events;
}
