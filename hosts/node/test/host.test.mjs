import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const HOST = new URL('../host.mjs', import.meta.url).pathname;
const catalog = JSON.parse(fs.readFileSync(new URL('../../wire/catalog.json', import.meta.url), 'utf8'));
const effectProfile = {
  version: '1.1.0',
  tools: Object.fromEntries(catalog.tools.map((t) => [t.id, ['approval', 'inspect', 'write', 'state_version', 'validate', 'diff_review', 'plan']])),
};

// session starts the host and speaks to it; answer(method, params) answers the host's own requests.
function session(t, answer) {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'node-host-ws-'));
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'node-host-store-'));
  const child = spawn(process.execPath, [HOST], { cwd: os.tmpdir(), stdio: ['pipe', 'pipe', 'pipe'] });
  t.after(() => {
    child.kill('SIGKILL');
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(store, { recursive: true, force: true });
  });
  const waiting = new Map();
  let buf = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (c) => {
    buf += c;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      if (msg.method) {
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: answer(msg.method, msg.params) })}\n`);
      } else {
        waiting.get(msg.id)?.(msg);
      }
    }
  });
  let id = 0;
  const call = (method, params) => new Promise((resolve) => {
    const n = ++id;
    waiting.set(n, resolve);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`);
  });
  return { ws, store, call, child };
}

const init = (s, extra = {}) => s.call('initialize', {
  protocolVersion: '1', workspaceRoot: s.ws, storeDir: s.store, catalog, effectProfile,
  mode: 'auto', approvalProfile: 'balanced', containment: 'best_effort', toolProfile: 'host', ...extra,
});

const exec = (s, modelName, args, callId = 'c1') => s.call('tool/execute', {
  callId, modelName, arguments: args, idempotencyKey: `k-${callId}`, timeoutMs: 20000,
  context: { runId: 'run', taskId: 'task', mode: 'auto' },
});

test('requests before initialize are refused; initialize declares the host', async (t) => {
  const s = session(t, () => ({ approved: true, scope: 'once' }));
  assert.equal((await s.call('tools/list', {})).error.code, -32002);
  const r = (await init(s)).result;
  assert.equal(r.protocolVersion, '1');
  assert.equal(r.commandEnvironment.command.executable, '/bin/sh');
  assert.equal(r.containment.verified, r.containment.state === 'active');
  assert.equal((await init(s)).error.code, -32600);
  const list = (await s.call('tools/list', {})).result;
  assert.equal(list.canonicalToolIds.write_file, 'workspace.write');
  assert.equal(list.canonicalToolIds.fetch_url, undefined);
});

test('run_command asks for approval, bounds output and reports the exit code', async (t) => {
  const asked = [];
  const s = session(t, (method, params) => {
    asked.push(params.requestId);
    return { approved: true, scope: 'once' };
  });
  await init(s);
  const env = (await exec(s, 'run_command', { command: 'echo out; echo err >&2; head -c 20000 /dev/zero | tr "\\0" x; exit 3' })).result;
  assert.equal(env.ok, true);
  assert.deepEqual(asked, ['run:c1']);
  const out = JSON.parse(env.content);
  assert.equal(out.exitCode, 3);
  assert.equal(out.stderr, 'err\n');
  assert.equal(out.truncated, true);
  assert.match(env.artifactRef, /^node-spill:\/\//);
  assert.equal(env.effects.approval, 'granted');
});

test('unknown tools and invalid arguments are structured failures', async (t) => {
  const s = session(t, () => ({ approved: false, scope: 'once' }));
  const r = (await init(s, { forbidContainmentBackends: true })).result;
  assert.equal(r.containment.verified, false);
  assert.equal(r.containment.backend, 'none');
  const unknown = (await exec(s, 'nope', {})).result;
  assert.equal(unknown.error.code, 'UNKNOWN_TOOL');
  assert.equal(unknown.canonicalToolId, 'nope');
  const invalid = (await exec(s, 'read_file', { path: '../x' })).result;
  assert.equal(invalid.error.code, 'INVALID_TOOL_ARGUMENTS');
  const denied = (await exec(s, 'run_command', { command: 'true' })).result;
  assert.equal(denied.error.code, 'DENIED_BY_HOST');
  assert.deepEqual(denied.effects, { approval: 'denied', approvalRequestId: 'run:c1' });
});
