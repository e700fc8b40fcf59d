// command.mjs: the command port (tool command.run; also the runner of
// project.validate). /bin/sh -c <command> spawned directly (shell: false)
// in a process group of its own, stdin closed, no TTY, stdout and stderr
// bounded independently with the complete streams in spill files, the whole
// group killed on timeout, cancellation and exit (tools/command.run.md;
// PROTOCOL.md "Processes", "Timeouts and cancellation"). Containment is
// reported as it is: this host runs no containment backend.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ToolError } from './workspace.mjs';

/** Bytes of each stream kept in the output (a head); the rest is only in the spill file. */
export const STREAM_CAP = 8000;
const MAX_COMMAND = 128 * 1024;
const DEFAULT_TIMEOUT = 120000;

/** commandEnvironment is the interpreter that spawns commands, as initialize publishes it. */
export function commandEnvironment() {
  return {
    architecture: process.arch,
    operatingSystem: ['linux', 'darwin', 'win32'].includes(process.platform) ? process.platform : 'unknown',
    command: {
      argumentsPrefix: ['-c'],
      commandMode: 'shell_string',
      executable: '/bin/sh',
      interactive: false,
      pathStyle: 'posix',
      shell: 'sh',
      stdin: 'closed',
      tty: false,
    },
  };
}

/** containmentStatus is the honest containment report: no backend is used, so nothing is verified. */
export function containmentStatus(mode, forbidden) {
  return {
    active: false,
    backend: 'none',
    executable: null,
    filesystemReads: 'host_visible',
    filesystemWrites: 'uncontained',
    mode,
    network: 'uncontained',
    reason: forbidden
      ? 'Containment backends are forbidden in this session.'
      : 'This host runs commands without a containment backend.',
    state: 'unavailable',
    verified: false,
  };
}

/** unavailableMessage is the exact refusal of a command when containment is required. */
export function unavailableMessage(status) {
  return `Required command containment is unavailable (${status.backend}/${status.state}): ${status.reason}`;
}

/** checkCommand validates what the schema cannot: length, NUL, env names. */
export function checkCommand(command, env) {
  if (command.length > MAX_COMMAND) throw new ToolError('INVALID_INPUT', `Command is longer than ${MAX_COMMAND} characters.`);
  if (command.includes('\0')) throw new ToolError('INVALID_INPUT', 'Command contains a NUL byte.');
  for (const [k, v] of Object.entries(env ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new ToolError('INVALID_INPUT', `Invalid environment variable name '${k}'.`);
    if (v.includes('\0')) throw new ToolError('INVALID_INPUT', `Environment variable '${k}' contains a NUL byte.`);
  }
}

/** Bounded keeps a head of a stream in memory and the complete stream in a spill file once it outgrows the head. */
class Bounded {
  constructor(spillDir, name) {
    this.spillDir = spillDir;
    this.name = name;
    this.head = [];
    this.size = 0;
    this.fd = null;
    this.file = null;
  }

  push(chunk) {
    if (this.size <= STREAM_CAP) this.head.push(chunk);
    this.size += chunk.length;
    if (this.size > STREAM_CAP && this.fd === null) {
      fs.mkdirSync(this.spillDir, { recursive: true });
      this.file = path.join(this.spillDir, `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}-${this.name}.log`);
      this.fd = fs.openSync(this.file, 'wx', 0o600);
      for (const c of this.head) fs.writeSync(this.fd, c);
    } else if (this.fd !== null) {
      fs.writeSync(this.fd, chunk);
    }
  }

  finish() {
    if (this.fd !== null) {
      fs.fsyncSync(this.fd);
      fs.closeSync(this.fd);
      this.fd = null;
    }
    const all = Buffer.concat(this.head);
    const truncated = this.size > STREAM_CAP;
    let text = (truncated ? all.subarray(0, STREAM_CAP) : all).toString('utf8');
    if (truncated) text = text.replace(/\uFFFD+$/, ''); // drop a character cut in half
    return { text, truncated, file: this.file };
  }
}

function killGroup(pid, signal = 'SIGKILL') {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone
  }
}

/** Every running process group, for shutdown. */
export const running = new Set();

/** killAll kills every command still running (shutdown). */
export function killAll() {
  for (const pid of running) killGroup(pid);
}

/**
 * run spawns /bin/sh -c command in cwd and resolves with
 * {exitCode, stdout, stderr, timedOut, cancelled, truncated, spillFiles}.
 * timeoutMs bounds it; signal cancels it. Neither is an error.
 */
export function run({ command, cwd, env, timeoutMs, signal, spillDir }) {
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn('/bin/sh', ['-c', command], {
        cwd,
        env: { ...process.env, ...env },
        detached: true, // a process group of its own
        shell: false,
        stdio: ['ignore', 'pipe', 'pipe'], // stdin closed, no TTY
        windowsHide: true,
      });
    } catch (err) {
      reject(err);
      return;
    }
    const out = new Bounded(spillDir, 'stdout');
    const err = new Bounded(spillDir, 'stderr');
    let timedOut = false;
    let cancelled = false;
    let exit = null;
    let settled = false;
    const pid = child.pid;
    if (pid) running.add(pid);
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(pid);
    }, Math.max(0, timeoutMs ?? DEFAULT_TIMEOUT));
    const onAbort = () => {
      cancelled = true;
      killGroup(pid);
    };
    if (signal) {
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      running.delete(pid);
      child.stdout.destroy();
      child.stderr.destroy();
      const o = out.finish();
      const e = err.finish();
      let exitCode = exit.code;
      if (exitCode === null) exitCode = 128 + (signalNumber(exit.signal) ?? 9);
      resolve({
        exitCode,
        stdout: o.text,
        stderr: e.text,
        timedOut: timedOut && !cancelled,
        cancelled,
        truncated: o.truncated || e.truncated,
        spillFiles: [o.file, e.file].filter(Boolean),
      });
    };
    child.on('error', (e) => {
      if (exit === null) {
        clearTimeout(timer);
        running.delete(pid);
        reject(e);
      }
    });
    child.on('exit', (code, sig) => {
      exit = { code, signal: sig };
      // nothing the command started outlives it
      killGroup(pid);
      // the streams close once every holder is gone; do not wait for long
      setTimeout(done, 1000).unref();
    });
    child.on('close', () => {
      if (exit === null) exit = { code: child.exitCode, signal: child.signalCode };
      done();
    });
  });
}

function signalNumber(name) {
  const n = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15, SIGPIPE: 13, SIGALRM: 14 };
  return n[name];
}
