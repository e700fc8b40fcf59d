import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';
import { isPublic, MAX_RESULT_BYTES, Research } from '../research.mjs';

test('only public addresses are public', () => {
  for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700::1111']) assert.equal(isPublic(ip), true, ip);
  for (const ip of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1']) {
    assert.equal(isPublic(ip), false, ip);
  }
});

function serve(t, handler) {
  return new Promise((resolve) => {
    const server = http.createServer(handler).listen(0, '127.0.0.1', () => resolve(server.address().port));
    t.after(() => server.close());
  });
}

const ctx = () => ({ signal: new AbortController().signal, deadline: Date.now() + 5000 });

test('loopback is refused without the exact allowance and fetched with it', async (t) => {
  const port = await serve(t, (req, res) => res.end('x'.repeat(50000)));
  await assert.rejects(new Research().fetch({ url: `http://127.0.0.1:${port}/` }, ctx()), { code: 'INVALID_INPUT' });
  await assert.rejects(new Research({ allowLoopback: ['127.0.0.1:1'] }).fetch({ url: `http://127.0.0.1:${port}/` }, ctx()), { code: 'INVALID_INPUT' });
  const r = await new Research({ allowLoopback: [`127.0.0.1:${port}`] }).fetch({ url: `http://127.0.0.1:${port}/` }, ctx());
  assert.equal(r.output.truncated, true);
  assert.ok(Buffer.byteLength(JSON.stringify(r.output)) <= MAX_RESULT_BYTES);
  assert.equal(r.output.provenance.trust, 'untrusted_external');
});

test('configured credentials go in headers only and are redacted from what comes back', async (t) => {
  let seen;
  const port = await serve(t, (req, res) => {
    seen = req;
    res.end(JSON.stringify({ results: [{ title: 'Hit sk-secret-123456', url: 'https://example.com/a', snippet: 'Bearer sk-secret-123456' }] }));
  });
  const env = { CONFORM_RESEARCH_SEARCH_URL: `http://127.0.0.1:${port}/search`, CONFORM_RESEARCH_HEADERS: '{"Authorization":"Bearer sk-secret-123456"}' };
  const r = await new Research({ env }).search({ query: 'docs sk-secret-123456' }, ctx());
  assert.equal(seen.headers.authorization, 'Bearer sk-secret-123456');
  assert.ok(!seen.url.includes('sk-secret'));
  assert.ok(!JSON.stringify(r).includes('sk-secret'));
  await assert.rejects(new Research({ env }).fetch({ url: 'https://example.com/?k=sk-secret-123456' }, ctx()), { code: 'INVALID_INPUT' });
});
