import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { run, STREAM_CAP } from '../command.mjs';

function tmp(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-host-cmd-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// alive tells whether pid runs (a zombie waiting for its reaper does not).
const alive = (pid) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
};

test('a cancelled command loses its whole process group', async (t) => {
  const dir = tmp(t);
  const ctl = new AbortController();
  const pending = run({ command: `sleep 30 & echo $! > ${dir}/bg; sleep 30`, cwd: dir, env: {}, timeoutMs: 20000, signal: ctl.signal, spillDir: dir });
  while (!fs.existsSync(path.join(dir, 'bg')) || fs.readFileSync(path.join(dir, 'bg'), 'utf8') === '') await new Promise((r) => setTimeout(r, 20));
  const bg = Number(fs.readFileSync(path.join(dir, 'bg'), 'utf8'));
  ctl.abort();
  const r = await pending;
  assert.equal(r.cancelled, true);
  assert.equal(r.timedOut, false);
  await new Promise((res) => setTimeout(res, 100));
  assert.equal(alive(bg), false);
});

test('streams are bounded apart, spilled whole, stdin closed', async (t) => {
  const dir = tmp(t);
  const r = await run({ command: `head -c ${STREAM_CAP * 2} /dev/zero | tr '\\0' o; echo e >&2; cat; echo rc=$?`, cwd: dir, env: {}, timeoutMs: 10000, spillDir: dir });
  assert.equal(r.truncated, true);
  assert.equal(r.stderr, 'e\n');
  assert.equal(Buffer.byteLength(r.stdout), STREAM_CAP);
  assert.equal(r.spillFiles.length, 1);
  assert.equal(fs.readFileSync(r.spillFiles[0], 'utf8'), `${'o'.repeat(STREAM_CAP * 2)}rc=0\n`);
});

test('a timeout kills the command and is not an error', async (t) => {
  const dir = tmp(t);
  const r = await run({ command: 'sleep 30', cwd: dir, env: {}, timeoutMs: 200, spillDir: dir });
  assert.equal(r.timedOut, true);
  assert.notEqual(r.exitCode, 0);
});
