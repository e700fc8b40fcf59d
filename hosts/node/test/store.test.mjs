import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Store } from '../store.mjs';

function tmp(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-host-store-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const ev = (id, seq, extra = {}) => ({
  eventId: id, executionId: 'e', kind: 'tool_call', payload: {}, runId: 'r', sequence: seq, taskId: 't', timestamp: '2026-01-01T00:00:00Z', ...extra,
});

test('store put, get and list survive a fresh process', async (t) => {
  const dir = tmp(t);
  const a = new Store(dir);
  assert.deepEqual(await a.put('r', 'checkpoint', { n: 1 }), { sequence: 1, artifactRef: a.list('r', 'checkpoint').entries[0].artifactRef });
  await a.put('r', 'checkpoint', { n: 2 });
  const b = new Store(dir);
  assert.deepEqual(b.get('r', 'checkpoint').document, { n: 2 });
  assert.deepEqual(b.list('r', 'checkpoint').entries.map((e) => e.sequence), [1, 2]);
  assert.equal(b.get('r', 'final_report').document, null);
  await assert.rejects(b.put('r', 'checkpoint', [1]), { code: 'INVALID_INPUT' });
});

test('trace rules hold across processes', async (t) => {
  const dir = tmp(t);
  const a = new Store(dir);
  await a.append(ev('1', 1));
  await a.append(ev('2', 2));
  assert.deepEqual(await a.flush(), { durableEvents: 2 });
  const b = new Store(dir);
  await assert.rejects(b.append(ev('1', 3)), { code: 'CONFLICT' });
  await assert.rejects(b.append(ev('3', 2)), { code: 'CONFLICT' });
  await assert.rejects(b.append(ev('4', 9, { timestamp: 'not a date' })), { code: 'INVALID_INPUT' });
  await b.append(ev('5', 3));
  assert.deepEqual(b.traceList('r').events.map((e) => e.eventId), ['1', '2', '5']);
});

test('idempotency records survive a fresh process', (t) => {
  const dir = tmp(t);
  new Store(dir).record('workspace.write', 'k', { ok: true });
  assert.deepEqual(new Store(dir).recalled('workspace.write', 'k'), { ok: true });
  assert.equal(new Store(dir).recalled('workspace.edit', 'k'), undefined);
});
