// research.mjs: the research port (tools research.fetch and research.search;
// tools/research.fetch.md, tools/research.search.md; PROTOCOL.md
// "Environment" for the search provider and "initialize" for
// research.allowLoopback). Only public HTTP(S) addresses are contacted: every
// address a name resolves to is checked in the socket's own lookup, so the
// address checked is the address connected to; loopback only for the exact
// addresses of allowLoopback. Bodies are bounded, text is returned as UTF-8
// (invalid bytes repaired) and hashed, and every source is untrusted.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { sha256 } from './fsutil.mjs';
import { ToolError } from './workspace.mjs';

const DEFAULT_MAX_BYTES = 100000;
/**
 * Bound of a fetch result's serialized JSON. The tool's limits are 32000
 * bytes and 6000 tokens; 12000 bytes stays inside both even at two bytes a
 * token, so the core never has to cut the result.
 */
export const MAX_RESULT_BYTES = 12000;

/** cutTo returns the longest prefix of text whose JSON string form fits budget bytes. */
function cutTo(text, budget) {
  if (Buffer.byteLength(JSON.stringify(text)) <= budget) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (Buffer.byteLength(JSON.stringify(text.slice(0, mid))) <= budget) lo = mid;
    else hi = mid - 1;
  }
  let cut = text.slice(0, lo);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return cut;
}
const MAX_REDIRECTS = 5;

/** isPublic tells whether an IP address is public (not private, loopback, link-local or reserved). */
export function isPublic(ip) {
  if (net.isIPv4(ip)) {
    const [a, b] = ip.split('.').map(Number);
    if (a === 0 || a === 10 || a === 127 || a >= 224) return false;
    if (a === 100 && b >= 64 && b <= 127) return false;
    if (a === 169 && b === 254) return false;
    if (a === 172 && b >= 16 && b <= 31) return false;
    if (a === 192 && (b === 168 || (b === 0 && ip.startsWith('192.0.0.')) || (b === 0 && ip.startsWith('192.0.2.')))) return false;
    if (a === 198 && (b === 18 || b === 19)) return false;
    return true;
  }
  if (net.isIPv6(ip)) {
    const x = ip.toLowerCase();
    if (x === '::' || x === '::1') return false;
    if (x.startsWith('::ffff:')) return isPublic(x.slice(7));
    if (/^f[cd]/.test(x) || /^fe[89ab]/.test(x) || x.startsWith('ff') || x.startsWith('2001:db8')) return false;
    return true;
  }
  return false;
}

/** Research is the research adapter of one session. */
export class Research {
  constructor({ allowLoopback = [], env = process.env } = {}) {
    this.allowLoopback = new Set(allowLoopback);
    this.searchUrl = env.CONFORM_RESEARCH_SEARCH_URL || null;
    this.searchHeaders = {};
    if (env.CONFORM_RESEARCH_HEADERS) {
      try {
        const h = JSON.parse(env.CONFORM_RESEARCH_HEADERS);
        if (h && typeof h === 'object' && !Array.isArray(h)) {
          this.searchHeaders = Object.fromEntries(Object.entries(h).filter(([, v]) => typeof v === 'string'));
        }
      } catch {
        // unusable headers: the search provider is not configured
        this.searchUrl = null;
      }
    }
  }

  /** redact replaces the provider's configured credentials in text from any source: they never reach the model. */
  redact(text) {
    if (!this.secrets) {
      this.secrets = [];
      for (const v of Object.values(this.searchHeaders)) {
        this.secrets.push(v);
        const m = /^\s*\S+\s+(\S{6,})\s*$/.exec(v); // "Bearer <token>"
        if (m) this.secrets.push(m[1]);
      }
      this.secrets = this.secrets.filter((x) => x.length >= 6).sort((a, b) => b.length - a.length);
    }
    return this.secrets.reduce((acc, x) => acc.split(x).join('[REDACTED]'), text);
  }

  /** True when a search provider is configured (research.search is backed). */
  get canSearch() {
    return this.searchUrl !== null;
  }

  // lookupFor checks every address a name resolves to before the socket connects.
  #lookupFor(url) {
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    return (hostname, options, callback) => {
      dns.lookup(hostname, { all: true, verbatim: true }, (err, addrs) => {
        if (err) return callback(err);
        for (const a of addrs) {
          const key = a.family === 6 ? `[${a.address}]:${port}` : `${a.address}:${port}`;
          if (!isPublic(a.address) && !this.allowLoopback.has(key)) {
            const e = new Error(`refused address ${a.address}: not a public host`);
            e.code = 'ENOTPUBLIC';
            return callback(e);
          }
        }
        if (options && options.all) return callback(null, addrs);
        return callback(null, addrs[0].address, addrs[0].family);
      });
    };
  }

  #checkUrl(raw) {
    let url;
    try {
      url = new URL(raw);
    } catch {
      throw new ToolError('INVALID_INPUT', 'The URL does not parse.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ToolError('INVALID_INPUT', 'Only http and https URLs can be fetched.');
    if (url.username || url.password) throw new ToolError('INVALID_INPUT', 'URLs with credentials are refused.');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host)) {
      const port = url.port || (url.protocol === 'https:' ? '443' : '80');
      const key = net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
      if (!isPublic(host) && !this.allowLoopback.has(key)) {
        throw new ToolError('INVALID_INPUT', `The URL is not a public HTTP(S) address: ${url.host}.`);
      }
    } else if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
      throw new ToolError('INVALID_INPUT', `The URL is not a public HTTP(S) address: ${url.host}.`);
    }
    return url;
  }

  // get reads at most maxBytes of url's body; {status, headers, body, truncated}.
  #get(url, { headers = {}, maxBytes, signal, checked = true }) {
    return new Promise((resolve, reject) => {
      const mod = url.protocol === 'https:' ? https : http;
      const req = mod.request(url, {
        method: 'GET',
        headers: { 'user-agent': 'conform-node-host/0.1', accept: '*/*', ...headers },
        lookup: checked ? this.#lookupFor(url) : undefined,
        signal,
      }, (res) => {
        const chunks = [];
        let size = 0;
        let truncated = false;
        res.on('data', (c) => {
          if (truncated) return;
          chunks.push(c);
          size += c.length;
          if (size > maxBytes) {
            truncated = true;
            res.destroy();
            finish();
          }
        });
        const finish = () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).subarray(0, maxBytes), truncated });
        res.on('end', finish);
        res.on('error', (e) => (truncated ? finish() : reject(e)));
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** fetch runs research.fetch. */
  async fetch(args, { signal, deadline }) {
    if (this.redact(args.url) !== args.url) {
      throw new ToolError('INVALID_INPUT', 'The URL carries a credential of the host\'s configuration; credentials go in request headers only, so it is not fetched.');
    }
    let url = this.#checkUrl(args.url);
    const maxBytes = args.maxBytes ?? DEFAULT_MAX_BYTES;
    const timeout = AbortSignal.timeout(Math.max(1, deadline - Date.now() - 250));
    const both = AbortSignal.any([signal, timeout]);
    let res;
    try {
      for (let hop = 0; ; hop++) {
        res = await this.#get(url, { maxBytes, signal: both });
        if (res.status >= 300 && res.status < 400 && res.headers.location && hop < MAX_REDIRECTS) {
          url = this.#checkUrl(new URL(res.headers.location, url).href);
          continue;
        }
        break;
      }
    } catch (err) {
      if (err instanceof ToolError) throw err;
      if (signal.aborted) throw new ToolError('CANCELED', 'The fetch was cancelled.');
      if (timeout.aborted) throw new ToolError('DEADLINE_EXCEEDED', 'The source did not answer within the call\'s time limit.');
      if (err.code === 'ENOTPUBLIC') throw new ToolError('INVALID_INPUT', `The URL is not a public HTTP(S) address: ${url.host}.`);
      throw new ToolError('UNAVAILABLE', `The source is unavailable: ${err.code ?? err.message}.`);
    }
    if (res.status < 200 || res.status >= 300) throw new ToolError('UNAVAILABLE', `The source answered HTTP ${res.status}.`);
    const mimeType = String(res.headers['content-type'] ?? '').split(';')[0].trim() || undefined;
    let text = this.redact(new TextDecoder('utf-8').decode(res.body)); // invalid bytes become U+FFFD
    if (res.truncated) text = text.replace(/\uFFFD+$/, '');
    let title;
    if (mimeType === 'text/html' || /<html[\s>]/i.test(text.slice(0, 2000))) {
      const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text);
      if (m && m[1].trim()) title = this.redact(m[1].replace(/\s+/g, ' ').trim());
      text = text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ').replace(/[ \t]+/g, ' ').replace(/\n\s*\n+/g, '\n\n').trim();
    }
    let truncated = res.truncated;
    // the rest of the result takes well under 2000 bytes
    const budget = MAX_RESULT_BYTES - 2000 - Buffer.byteLength(JSON.stringify(url.href)) * 2 - Buffer.byteLength(JSON.stringify(title ?? ''));
    const cut = cutTo(text, Math.max(256, budget));
    if (cut.length < text.length) {
      text = cut;
      truncated = true;
    }
    const contentHash = `sha256:${sha256(text)}`;
    const output = { url: url.href };
    if (title) output.title = title;
    output.content = text;
    if (mimeType) output.mimeType = mimeType;
    output.contentHash = contentHash;
    output.truncated = truncated;
    output.provenance = { source: url.href, trust: 'untrusted_external', retrievedAt: new Date().toISOString(), contentHash };
    const source = { kind: 'fetch', url: url.href, summary: title ?? `Fetched ${url.href}`, truncated, contentHash };
    if (title) source.title = title;
    return { output, summary: `Fetched ${url.href}${truncated ? ' (truncated)' : ''}.`, researchSources: [source] };
  }

  /** search runs research.search against the configured provider. */
  async search(args, { signal, deadline }) {
    if (!this.searchUrl) throw new ToolError('UNAVAILABLE', 'No search provider is configured.');
    const url = new URL(this.searchUrl);
    const n = args.maxResults ?? 5;
    url.searchParams.set('q', this.redact(args.query)); // a credential the model repeats stays out of the URL
    url.searchParams.set('n', String(n));
    const timeout = AbortSignal.timeout(Math.max(1, deadline - Date.now() - 250));
    let res;
    try {
      // the configured provider is the host's own setting: it is not checked like a model-given URL
      res = await this.#get(url, { headers: this.searchHeaders, maxBytes: 1024 * 1024, signal: AbortSignal.any([signal, timeout]), checked: false });
    } catch (err) {
      if (signal.aborted) throw new ToolError('CANCELED', 'The search was cancelled.');
      if (timeout.aborted) throw new ToolError('DEADLINE_EXCEEDED', 'The search provider did not answer in time.');
      throw new ToolError('UNAVAILABLE', `The search provider is unavailable: ${err.code ?? 'request failed'}.`);
    }
    if (res.status < 200 || res.status >= 300) throw new ToolError('UNAVAILABLE', `The search provider answered HTTP ${res.status}.`);
    let hits;
    try {
      hits = JSON.parse(new TextDecoder('utf-8').decode(res.body)).results;
      if (!Array.isArray(hits)) throw new Error('no results');
    } catch {
      throw new ToolError('UNAVAILABLE', 'The search provider answered something that is not a result list.');
    }
    const retrievedAt = new Date().toISOString();
    const redact = (s) => this.redact(s);
    hits = hits.map((h) => (h && typeof h === 'object' ? Object.fromEntries(Object.entries(h).map(([k, v]) => [k, typeof v === 'string' ? redact(v) : v])) : h));
    const valid = hits.filter((h) => h && typeof h.url === 'string' && h.url && typeof h.title === 'string' && h.title);
    const results = valid.slice(0, n).map((h) => ({
      title: h.title,
      url: h.url,
      snippet: typeof h.snippet === 'string' ? h.snippet : '',
      provider: 'configured',
      provenance: { source: h.url, trust: 'untrusted_external', retrievedAt },
    }));
    const output = { results };
    if (valid.length > n) output.truncated = true;
    output.provenance = { source: 'research.search', trust: 'untrusted_external', retrievedAt };
    const researchSources = results.map((r) => ({ kind: 'search', url: r.url, summary: r.snippet || r.title, title: r.title, truncated: false, contentHash: null }));
    return { output, summary: `Found ${results.length} search result(s).`, researchSources };
  }
}
