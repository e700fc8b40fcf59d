import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileGlob, isDerived, isWorkspacePath } from '../paths.mjs';

test('workspace-path rule', () => {
  for (const ok of ['.', 'a', 'src/a.ts', '.hidden/x', 'a..b']) assert.equal(isWorkspacePath(ok), true, ok);
  for (const bad of ['', '/etc', 'C:/x', 'a\\b', 'a//b', 'a/', '..', 'a/../b', 'a/..', 'x\0y', 'a\nb']) {
    assert.equal(isWorkspacePath(bad), false, JSON.stringify(bad));
  }
});

test('derived trees', () => {
  for (const d of ['node_modules/x/y.js', 'dist', 'src/build/out.js', 'debug.log', 'a/b.tsbuildinfo', '.DS_Store', '.cache/z']) {
    assert.equal(isDerived(d), true, d);
  }
  for (const d of ['src/a.ts', 'builds/x', 'log.txt']) assert.equal(isDerived(d), false, d);
});

test('glob dialect', () => {
  const g = compileGlob('**/*.ts');
  assert.ok(g.test('a.ts'));
  assert.ok(g.test('src/deep/a.TS'));
  assert.ok(!g.test('src/a.js'));
  assert.ok(compileGlob('src/?.js').test('src/a.js'));
  assert.ok(!compileGlob('*.js').test('src/a.js'));
  assert.ok(compileGlob('a{b}.txt').test('a{b}.txt'));
});
