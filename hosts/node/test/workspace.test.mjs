import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Workspace } from '../workspace.mjs';

function tmp(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-host-ws-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('write creates, replaces under a precondition, and attests typed writes', (t) => {
  const root = tmp(t);
  const ws = new Workspace(root);
  const r = ws.write({ path: 'src/a.txt', content: 'hi\n', precondition: { kind: 'must_not_exist' } });
  assert.deepEqual(r.effects.writes.map((w) => [w.path, w.beforeKind, w.afterKind]), [['src', 'missing', 'directory'], ['src/a.txt', 'missing', 'file']]);
  assert.throws(() => ws.write({ path: 'src/a.txt', content: 'x', precondition: { kind: 'must_not_exist' } }), { code: 'PRECONDITION_FAILED' });
  assert.throws(() => ws.write({ path: 'src/a.txt', content: 'x', precondition: { kind: 'matches_sha256', contentSha256: '0'.repeat(64) } }), { code: 'PRECONDITION_FAILED' });
  const h = r.output.afterContentSha256;
  assert.throws(() => ws.write({ path: 'src/a.txt', content: 'hi\n', precondition: { kind: 'matches_sha256', contentSha256: h } }), { code: 'CONFLICT' });
  const r2 = ws.write({ path: 'src/a.txt', content: 'ho\n', precondition: { kind: 'matches_sha256', contentSha256: `sha256:${h}` } });
  assert.equal(r2.output.beforeContentSha256, h);
  assert.notEqual(r2.effects.stateVersion, r.effects.stateVersion);
});

test('a text write into a derived tree is an unknown outcome, not a write', (t) => {
  const root = tmp(t);
  const ws = new Workspace(root);
  assert.throws(() => ws.write({ path: 'node_modules/x.js', content: '1', precondition: { kind: 'must_not_exist' } }), (err) => err.unknown === true);
  assert.equal(fs.readFileSync(path.join(root, 'node_modules/x.js'), 'utf8'), '1');
});

test('escapes, symlinks and invalid UTF-8 are refused without touching bytes', (t) => {
  const root = tmp(t);
  const outside = tmp(t);
  fs.writeFileSync(path.join(outside, 'secret'), 'top');
  fs.symlinkSync(outside, path.join(root, 'link'));
  fs.writeFileSync(path.join(root, 'bad.txt'), Buffer.from([0xff, 0xfe, 0x41]));
  const ws = new Workspace(root);
  assert.throws(() => ws.read({ path: 'link/secret' }), { code: 'PERMISSION_DENIED' });
  assert.throws(() => ws.write({ path: 'link/new', content: 'x', precondition: { kind: 'must_not_exist' } }), { code: 'PERMISSION_DENIED' });
  assert.throws(() => ws.read({ path: 'bad.txt' }), { code: 'INVALID_INPUT' });
  const ino = fs.statSync(path.join(root, 'bad.txt')).ino;
  assert.throws(() => ws.edit({ path: 'bad.txt', oldText: 'A', newText: 'B' }), { code: 'INVALID_INPUT' });
  assert.equal(fs.statSync(path.join(root, 'bad.txt')).ino, ino);
  assert.equal(fs.existsSync(path.join(outside, 'new')), false);
});

test('edit replaces exactly one match or refuses', (t) => {
  const root = tmp(t);
  fs.writeFileSync(path.join(root, 'a.txt'), 'x = 1\nx = 1\n');
  const ws = new Workspace(root);
  assert.throws(() => ws.edit({ path: 'a.txt', oldText: 'x = 1', newText: 'x = 2' }), { code: 'CONFLICT' });
  assert.throws(() => ws.edit({ path: 'a.txt', oldText: 'nope', newText: 'x' }), { code: 'CONFLICT' });
  const r = ws.edit({ path: 'a.txt', oldText: 'x = 1', newText: 'x = $&2', replaceAll: true });
  assert.equal(r.output.replacements, 2);
  assert.equal(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'x = $&2\nx = $&2\n');
});

test('read pages a range and reports line numbers', (t) => {
  const root = tmp(t);
  fs.writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\nthree\n');
  const ws = new Workspace(root);
  const all = ws.read({ path: 'a.txt' }).output;
  assert.equal(all.startLine, 1);
  assert.equal(all.endLine, 4);
  const part = ws.read({ path: 'a.txt', startLine: 2, endLine: 2 }).output;
  assert.equal(part.content, 'two\n');
  const big = 'x'.repeat(300);
  fs.writeFileSync(path.join(root, 'b.txt'), `${big}\n${big}\n`);
  const first = ws.read({ path: 'b.txt', maxBytes: 256 }).output;
  assert.equal(first.truncated, true);
  const next = ws.read({ path: 'b.txt', maxBytes: 512, cursor: first.nextCursor }).output;
  assert.equal(first.content + next.content.slice(0, 45), `${big}\n`);
});

test('fingerprint binds content and checks active files', async (t) => {
  const root = tmp(t);
  fs.writeFileSync(path.join(root, 'a.txt'), 'one');
  const ws = new Workspace(root);
  const cap = await ws.capture([{ path: 'a.txt', contentHash: null }, { path: 'gone', contentHash: null }], null);
  assert.equal((await ws.verify(cap.state)).matches, true);
  fs.writeFileSync(path.join(root, 'a.txt'), 'two');
  assert.equal((await ws.verify(cap.state)).matches, false);
  await assert.rejects(ws.capture([{ path: 'a.txt', kind: 'directory', contentHash: null }], null), { code: 'PRECONDITION_FAILED' });
  await assert.rejects(ws.capture([{ path: 'gone', kind: 'file', contentHash: null }], null), { code: 'PRECONDITION_FAILED' });
  fs.mkdirSync(path.join(root, 'd'));
  await assert.rejects(ws.capture([{ path: 'd', contentHash: '0'.repeat(64) }], null), { code: 'INVALID_INPUT' });
});
