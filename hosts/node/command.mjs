// command.mjs: the command port (tool command.run; also the runner of
// project.validate). /bin/sh -c <command> spawned directly (shell: false)
// in a process group of its own, stdin closed, no TTY, stdout and stderr
// bounded independently with the complete streams in spill files, the whole
// group killed on timeout, cancellation and exit (tools/command.run.md;
// PROTOCOL.md "Processes", "Timeouts and cancellation"). Containment is
// reported as it is: bubblewrap (/usr/bin/bwrap) when a probe shows that it
// confines writes to the workspace and cuts the network, else none.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
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

const BWRAP = '/usr/bin/bwrap';

function none(mode, state, reason) {
  return {
    active: false,
    backend: state === 'unavailable' ? 'none' : 'linux_bubblewrap',
    executable: state === 'unavailable' ? null : BWRAP,
    filesystemReads: 'host_visible',
    filesystemWrites: 'uncontained',
    mode,
    network: 'uncontained',
    reason,
    state,
    verified: false,
  };
}

/** writableDirs are the directories a contained command may write: the workspace, the session's HOME and TMPDIR. */
function writableDirs(root) {
  const dirs = [root];
  for (const v of [process.env.HOME, process.env.TMPDIR]) {
    if (v && path.isAbsolute(v) && fs.existsSync(v)) dirs.push(fs.realpathSync(v));
  }
  return [...new Set(dirs)];
}

/** bwrapArgs is the bubblewrap command line around argv: read-only root, writable dirs, no network, own PID namespace. */
function bwrapArgs(writable, cwd, argv) {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  for (const d of writable) args.push('--bind', d, d);
  args.push('--unshare-net', '--die-with-parent', '--chdir', cwd, '--', ...argv);
  return args;
}

/**
 * containmentStatus probes bubblewrap (unless backends are forbidden) and
 * reports what commands will run under: verified only when the probe showed
 * that a write inside the allowed directory works, a write outside fails,
 * and no network interface but loopback is up.
 */
export function containmentStatus(mode, forbidden, root) {
  if (forbidden) return none(mode, 'unavailable', 'Containment backends are forbidden in this session.');
  if (process.platform !== 'linux') return none(mode, 'unavailable', 'No containment backend is supported on this OS.');
  try {
    fs.accessSync(BWRAP, fs.constants.X_OK);
  } catch {
    return none(mode, 'unavailable', 'bubblewrap is not installed.');
  }
  const inside = fs.mkdtempSync(path.join(os.tmpdir(), 'node-host-probe-in-'));
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'node-host-probe-out-'));
  try {
    const script = `echo ok > '${inside}/w' && ! (echo x > '${outside}/w') 2>/dev/null && ! (echo x > /probe-root) 2>/dev/null && ! grep -qv -e '^ *lo:' -e '|' -e 'face' /proc/net/dev`;
    const r = spawnSync(BWRAP, bwrapArgs([inside], inside, ['/bin/sh', '-c', script]), { timeout: 5000, stdio: 'ignore', env: process.env });
    const ok = r.status === 0 && fs.existsSync(path.join(inside, 'w')) && !fs.existsSync(path.join(outside, 'w'));
    if (!ok) return none(mode, 'probe_failed', `The bubblewrap probe failed (status ${r.status ?? r.signal ?? r.error?.code}).`);
  } finally {
    fs.rmSync(inside, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  }
  const status = {
    active: true,
    backend: 'linux_bubblewrap',
    executable: BWRAP,
    filesystemReads: 'host_visible',
    filesystemWrites: 'workspace_and_session_home',
    mode,
    network: 'isolated',
    reason: null,
    state: 'active',
    verified: true,
  };
  Object.defineProperty(status, 'writable', { value: writableDirs(root), enumerable: false });
  return status;
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
export function run({ command, cwd, env, timeoutMs, signal, spillDir, containment }) {
  return new Promise((resolve, reject) => {
    let child;
    const argv = ['/bin/sh', '-c', command];
    const contained = containment && containment.verified;
    try {
      child = spawn(contained ? BWRAP : argv[0], contained ? bwrapArgs(containment.writable, cwd, argv) : argv.slice(1), {
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
