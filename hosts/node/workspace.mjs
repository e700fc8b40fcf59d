// workspace.mjs: the workspace port (tools workspace.read, workspace.write,
// workspace.edit, workspace.list, workspace.glob, workspace.grep, and the
// workspace/fingerprint method). Paths are resolved beneath the real root;
// escapes, lexical or through a symlink, are refused; text must be UTF-8;
// writes are atomic (temporary file, rename) and preconditioned
// (tools/workspace.*.md; CONTRACTS.md "Workspace fingerprint").
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PortError, sha256 } from './fsutil.mjs';
import { compileGlob, isDerived, isWorkspacePath, joinRel } from './paths.mjs';
import * as snapshot from './snapshot.mjs';

/** Largest text file the host reads or writes (LIMIT_EXCEEDED above it). */
export const MAX_TEXT_BYTES = 16 * 1024 * 1024;
const DEFAULT_READ_BYTES = 131072;
const MAX_LINE_CHARS = 1024 * 1024;
const MAX_PATTERN = 4096;

/** ToolError is a tool failure answered as an ok:false result. */
export class ToolError extends PortError {}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** decodeUTF8 decodes bytes or returns undefined when they are not valid UTF-8. */
export function decodeUTF8(buf) {
  try {
    return utf8.decode(buf);
  } catch {
    return undefined;
  }
}

const normHash = (h) => String(h).replace(/^sha256:/i, '').toLowerCase();

function encodeCursor(obj) {
  return Buffer.from(JSON.stringify(obj)).toString('base64url');
}

function decodeCursor(cursor, kind) {
  try {
    const obj = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (obj && obj.k === kind) return obj;
  } catch {
    // fall through
  }
  throw new ToolError('INVALID_INPUT', 'The cursor is not one this host issued for this call.');
}

/** Workspace is one workspace root. */
export class Workspace {
  constructor(root) {
    this.root = fs.realpathSync(root);
    this.queue = Promise.resolve();
  }

  /** lock serializes mutations with fingerprint capture and verify. */
  lock(fn) {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => {});
    return next;
  }

  abs(rel) {
    return rel === '.' ? this.root : path.join(this.root, ...rel.split('/'));
  }

  #inside(real) {
    return real === this.root || real.startsWith(this.root + path.sep);
  }

  /** resolveRead follows symlinks but refuses a real path outside the root. */
  resolveRead(rel) {
    if (!isWorkspacePath(rel)) throw new ToolError('PERMISSION_DENIED', `Path escapes the workspace: '${rel}'.`);
    const abs = this.abs(rel);
    let real;
    try {
      real = fs.realpathSync(abs);
    } catch (err) {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') {
        this.#checkParents(rel, false);
        throw new ToolError('NOT_FOUND', `Path does not exist: '${rel}'.`);
      }
      if (err.code === 'ELOOP') throw new ToolError('PERMISSION_DENIED', `Path is a symlink loop: '${rel}'.`);
      throw err;
    }
    if (!this.#inside(real)) throw new ToolError('PERMISSION_DENIED', `Path escapes the workspace through a symlink: '${rel}'.`);
    return real;
  }

  // #checkParents refuses a path whose existing parents leave the workspace (read) or are symlinks (mutation).
  #checkParents(rel, mutation) {
    const segs = rel.split('/');
    let cur = this.root;
    for (let i = 0; i < segs.length - 1; i++) {
      cur = path.join(cur, segs[i]);
      let st;
      try {
        st = fs.lstatSync(cur);
      } catch (err) {
        if (err.code === 'ENOENT') return;
        throw err;
      }
      if (st.isSymbolicLink()) {
        if (mutation) throw new ToolError('PERMISSION_DENIED', `A mutation would follow the symlink '${segs.slice(0, i + 1).join('/')}'.`);
        let real;
        try {
          real = fs.realpathSync(cur);
        } catch {
          return;
        }
        if (!this.#inside(real)) throw new ToolError('PERMISSION_DENIED', `Path escapes the workspace through a symlink: '${rel}'.`);
        cur = real;
      } else if (!st.isDirectory()) {
        if (mutation) throw new ToolError('INVALID_INPUT', `A parent of '${rel}' is not a directory.`);
        return;
      }
    }
  }

  /** resolveMutation returns the absolute target of a mutation: never the root, never through or onto a symlink. */
  resolveMutation(rel) {
    if (!isWorkspacePath(rel)) throw new ToolError('PERMISSION_DENIED', `Path escapes the workspace: '${rel}'.`);
    if (rel === '.') throw new ToolError('PERMISSION_DENIED', 'A mutation may not touch the workspace root.');
    this.#checkParents(rel, true);
    const abs = this.abs(rel);
    let st;
    try {
      st = fs.lstatSync(abs);
    } catch (err) {
      if (err.code === 'ENOENT') return { abs, st: null };
      if (err.code === 'ENOTDIR') throw new ToolError('INVALID_INPUT', `A parent of '${rel}' is not a directory.`);
      throw err;
    }
    if (st.isSymbolicLink()) throw new ToolError('PERMISSION_DENIED', `A mutation would follow the symlink '${rel}'.`);
    return { abs, st };
  }

  /** readText reads a regular UTF-8 file: {text, bytes, hash}. */
  readText(rel, real) {
    const st = fs.statSync(real);
    if (!st.isFile()) throw new ToolError('INVALID_INPUT', 'readText requires a regular file.');
    if (st.size > MAX_TEXT_BYTES) throw new ToolError('LIMIT_EXCEEDED', `File is larger than ${MAX_TEXT_BYTES} bytes: '${rel}'.`);
    const bytes = fs.readFileSync(real);
    const text = decodeUTF8(bytes);
    if (text === undefined) throw new ToolError('INVALID_INPUT', `Workspace text operation requires valid UTF-8: '${rel}'.`);
    return { text, bytes, hash: sha256(bytes) };
  }

  /** workspace.read */
  read(args) {
    const real = this.resolveRead(args.path);
    const { text, hash } = this.readText(args.path, real);
    const maxBytes = args.maxBytes ?? DEFAULT_READ_BYTES;
    let start = args.startLine ?? 1;
    let end = args.endLine ?? null;
    let offset = 0; // UTF-16 offset inside the start line (a line longer than maxBytes)
    if (args.cursor !== undefined) {
      const c = decodeCursor(args.cursor, 'read');
      if (c.p !== args.path) throw new ToolError('INVALID_INPUT', 'The cursor belongs to another path.');
      if (c.h !== hash) throw new ToolError('CONFLICT', `The file changed after the cursor was issued: '${args.path}'.`);
      start = c.s;
      end = c.e;
      offset = c.o;
    }
    if (end !== null && end < start) throw new ToolError('INVALID_INPUT', `endLine ${end} is before startLine ${start}.`);
    const lines = text === '' ? [] : text.split(/(?<=\n)/);
    if (start > Math.max(lines.length, 1)) throw new ToolError('INVALID_INPUT', `startLine ${start} is beyond the end of the file (${lines.length} lines).`);
    const last = Math.min(end ?? lines.length, lines.length);
    let out = '';
    let used = 0;
    let truncated = false;
    let next = null;
    for (let n = start; n <= last; n++) {
      let line = lines[n - 1];
      if (n === start && offset) line = line.slice(offset);
      const size = Buffer.byteLength(line);
      if (used + size > maxBytes) {
        truncated = true;
        if (used === 0) {
          // one line over the budget: return the part that fits, at a character boundary
          let cut = 0;
          let bytes = 0;
          for (const ch of line) {
            const b = Buffer.byteLength(ch);
            if (bytes + b > maxBytes) break;
            bytes += b;
            cut += ch.length;
          }
          out = line.slice(0, cut);
          next = { s: n, o: (n === start ? offset : 0) + cut };
        } else {
          next = { s: n, o: 0 };
        }
        break;
      }
      out += line;
      used += size;
    }
    const result = { path: args.path, content: out, contentHash: hash, startLine: start };
    result.endLine = start + (out.match(/\n/g)?.length ?? 0);
    result.truncated = truncated;
    result.provenance = { source: 'workspace.readText', trust: 'untrusted_workspace', contentHash: hash };
    if (truncated) result.nextCursor = encodeCursor({ k: 'read', p: args.path, h: hash, s: next.s, e: end, o: next.o });
    return { output: result, summary: `Read ${args.path}:${result.startLine}-${result.endLine}${truncated ? ' (truncated)' : ''}.`, inspected: [args.path] };
  }

  /** Prepares a text mutation: the current file (or null), checked for symlinks and UTF-8. */
  #current(rel) {
    const { abs, st } = this.resolveMutation(rel);
    if (!st) return { abs, st: null, text: null, hash: null };
    if (!st.isFile()) throw new ToolError('INVALID_INPUT', `Target is not a regular file: '${rel}'.`);
    if (st.size > MAX_TEXT_BYTES) throw new ToolError('LIMIT_EXCEEDED', `File is larger than ${MAX_TEXT_BYTES} bytes: '${rel}'.`);
    const bytes = fs.readFileSync(abs);
    const text = decodeUTF8(bytes);
    if (text === undefined) throw new ToolError('INVALID_INPUT', `Workspace text operation requires valid UTF-8: '${rel}'.`);
    return { abs, st, text, hash: sha256(bytes) };
  }

  /** Atomically replaces abs with text: temporary file in the same directory, fsync, rename. */
  #commit(abs, text, mode) {
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    const tmp = path.join(path.dirname(abs), `.${path.basename(abs)}.${randomBytes(6).toString('hex')}.conform-tmp`);
    const fd = fs.openSync(tmp, 'wx', mode ?? 0o644);
    try {
      fs.writeSync(fd, text);
      if (mode !== undefined) fs.fchmodSync(fd, mode);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.renameSync(tmp, abs);
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      throw err;
    }
  }

  /**
   * mutate brackets a mutation with snapshots. check() runs the preconditions
   * and returns a commit function; anything thrown before the commit is a
   * tool failure, anything after it an unknown outcome (err.unknown).
   */
  #mutate(rel, check, expectHash) {
    const before = snapshot.take(this.root);
    const commit = check();
    try {
      commit();
      const after = snapshot.take(this.root);
      const d = snapshot.diff(before, after);
      const want = typeof expectHash === 'function' ? expectHash() : expectHash;
      // a write under a derived tree is bound by metadata only: its bytes cannot be attested
      const shown = d.writes.some((w) => w.path === rel && w.afterHash === `sha256:${want}`);
      if (!shown) throw new Error(`the after-snapshot does not show the write of '${rel}'`);
      return { writes: d.writes, derived: d.derived, stateVersion: snapshot.version(after) };
    } catch (err) {
      err.unknown = true;
      throw err;
    }
  }

  /** workspace.write */
  write(args) {
    const rel = args.path;
    if (!args.content.isWellFormed()) throw new ToolError('INVALID_INPUT', 'Content is not valid Unicode text (a lone surrogate).');
    const bytes = Buffer.from(args.content, 'utf8');
    if (bytes.length > MAX_TEXT_BYTES) throw new ToolError('LIMIT_EXCEEDED', `Content is larger than ${MAX_TEXT_BYTES} bytes.`);
    const afterHash = sha256(bytes);
    let cur;
    const effects = this.#mutate(rel, () => {
      cur = this.#current(rel);
      const pre = args.precondition;
      if (pre.kind === 'must_not_exist') {
        if (cur.st) throw new ToolError('PRECONDITION_FAILED', `Precondition must_not_exist failed: '${rel}' exists (contentSha256 ${cur.hash}).`);
      } else if (pre.kind === 'matches_sha256') {
        if (!cur.st) throw new ToolError('PRECONDITION_FAILED', `Precondition matches_sha256 failed: '${rel}' does not exist.`);
        if (normHash(pre.contentSha256) !== cur.hash) {
          throw new ToolError('PRECONDITION_FAILED', `Precondition matches_sha256 failed: the current contentSha256 of '${rel}' is ${cur.hash}.`);
        }
      } else {
        throw new ToolError('INVALID_INPUT', `Unknown precondition kind '${pre.kind}'.`);
      }
      if (cur.st && cur.hash === afterHash) throw new ToolError('CONFLICT', `The write would not change '${rel}'.`);
      return () => this.#commit(cur.abs, bytes, cur.st ? cur.st.mode & 0o7777 : undefined);
    }, afterHash);
    const output = { path: rel, resolvedPath: cur.abs };
    if (cur.st) output.beforeContentSha256 = cur.hash;
    output.afterContentSha256 = afterHash;
    output.length = args.content.length;
    const dm = snapshot.derivedMutations(effects.derived);
    if (dm) output.derivedMutations = dm;
    return { output, summary: `Wrote ${args.content.length} characters to ${rel}.`, effects };
  }

  /** workspace.edit */
  edit(args) {
    const rel = args.path;
    if (args.oldText === '') throw new ToolError('INVALID_INPUT', 'oldText must not be empty.');
    if (args.newText === args.oldText) throw new ToolError('INVALID_INPUT', 'newText equals oldText: the edit would change nothing.');
    if (!args.newText.isWellFormed()) throw new ToolError('INVALID_INPUT', 'newText is not valid Unicode text (a lone surrogate).');
    let cur;
    let next;
    let count = 0;
    let afterHash;
    const effects = this.#mutate(rel, () => {
      cur = this.#current(rel);
      if (!cur.st) throw new ToolError('NOT_FOUND', `Path does not exist: '${rel}'.`);
      if (args.precondition && normHash(args.precondition.contentSha256) !== cur.hash) {
        throw new ToolError('PRECONDITION_FAILED', `Precondition matches_sha256 failed: the current contentSha256 of '${rel}' is ${cur.hash}.`);
      }
      const parts = cur.text.split(args.oldText);
      count = parts.length - 1;
      if (count === 0) {
        throw new ToolError('CONFLICT', 'Patch target was not found. Re-read the exact region and copy its bytes verbatim; common causes are CRLF line endings, invisible characters, Unicode normalization differences, or edited content.');
      }
      if (count > 1 && !args.replaceAll) {
        throw new ToolError('CONFLICT', `Patch target is ambiguous: oldText occurs ${count} times. Include neighbouring lines to make it unique, or set replaceAll.`);
      }
      next = args.replaceAll ? parts.join(args.newText) : cur.text.replace(args.oldText, () => args.newText);
      if (!args.replaceAll) count = 1;
      const bytes = Buffer.from(next, 'utf8');
      if (bytes.length > MAX_TEXT_BYTES) throw new ToolError('LIMIT_EXCEEDED', `The edited file would be larger than ${MAX_TEXT_BYTES} bytes.`);
      afterHash = sha256(bytes);
      if (afterHash === cur.hash) throw new ToolError('INVALID_INPUT', 'The edit would change nothing.');
      return () => this.#commit(cur.abs, bytes, cur.st.mode & 0o7777);
    }, () => afterHash);
    return this.#editResult(rel, cur, afterHash, count, effects);
  }

  #editResult(rel, cur, afterHash, count, effects) {
    const output = { path: rel, resolvedPath: cur.abs, beforeContentSha256: cur.hash, afterContentSha256: afterHash, replacements: count };
    const dm = snapshot.derivedMutations(effects.derived);
    if (dm) output.derivedMutations = dm;
    return { output, summary: `Applied ${count} replacement(s) to ${rel}.`, effects };
  }

  /** walk lists entries below a real directory depth first, children in UTF-16 order of their names. */
  *walk(realDir, relDir, maxDepth, depth = 1, skipGit = false) {
    let names;
    try {
      names = fs.readdirSync(realDir);
    } catch (err) {
      if (err.code === 'ENOENT' || err.code === 'EACCES') return;
      throw err;
    }
    names.sort();
    for (const name of names) {
      if (skipGit && name === '.git') continue;
      const abs = path.join(realDir, name);
      let st;
      try {
        st = fs.lstatSync(abs);
      } catch {
        continue;
      }
      const kind = st.isFile() ? 'file' : st.isDirectory() ? 'directory' : st.isSymbolicLink() ? 'symlink' : 'other';
      const rel = joinRel(relDir, name);
      yield { rel, name, kind, abs };
      if (kind === 'directory' && depth < maxDepth) yield* this.walk(abs, rel, maxDepth, depth + 1, skipGit);
    }
  }

  #dir(rel) {
    const real = this.resolveRead(rel);
    if (!fs.statSync(real).isDirectory()) throw new ToolError('INVALID_INPUT', `Path is not a directory: '${rel}'.`);
    return real;
  }

  /** workspace.list */
  list(args) {
    const real = this.#dir(args.path);
    const depth = args.depth ?? 1;
    const limit = args.limit ?? 200;
    let offset = 0;
    if (args.cursor !== undefined) {
      const c = decodeCursor(args.cursor, 'list');
      if (c.p !== args.path || c.d !== depth) throw new ToolError('INVALID_INPUT', 'The cursor belongs to another listing.');
      offset = c.o;
    }
    const entries = [];
    let more = false;
    let i = 0;
    for (const e of this.walk(real, args.path, depth)) {
      if (i++ < offset) continue;
      if (entries.length === limit) {
        more = true;
        break;
      }
      entries.push({ path: e.rel, name: e.name, kind: e.kind });
    }
    const output = { entries, truncated: more };
    if (more) output.nextCursor = encodeCursor({ k: 'list', p: args.path, d: depth, o: offset + entries.length });
    return { output, summary: `Listed ${entries.length} workspace entries.`, inspected: [args.path] };
  }

  /** workspace.glob */
  glob(args) {
    const base = args.path ?? '.';
    if (args.pattern.length > MAX_PATTERN) throw new ToolError('INVALID_INPUT', `Pattern is longer than ${MAX_PATTERN} characters.`);
    const real = this.#dir(base);
    const re = compileGlob(args.pattern);
    const kind = args.kind ?? 'any';
    const limit = args.limit ?? 200;
    let offset = 0;
    if (args.cursor !== undefined) {
      const c = decodeCursor(args.cursor, 'glob');
      if (c.p !== base || c.g !== args.pattern || c.t !== kind) throw new ToolError('INVALID_INPUT', 'The cursor belongs to another search.');
      offset = c.o;
    }
    const all = [];
    for (const e of this.walk(real, base, Infinity, 1, true)) {
      if (kind !== 'any' && e.kind !== kind) continue;
      const relBase = base === '.' ? e.rel : e.rel.slice(base.length + 1);
      if (re.test(e.rel) || re.test(relBase)) all.push(e.rel);
    }
    all.sort();
    const matches = all.slice(offset, offset + limit);
    const more = offset + matches.length < all.length;
    const output = { matches, truncated: more };
    if (more) output.nextCursor = encodeCursor({ k: 'glob', p: base, g: args.pattern, t: kind, o: offset + matches.length });
    return { output, summary: `Found ${matches.length} matching workspace paths.`, inspected: [base] };
  }

  /** workspace.grep */
  grep(args) {
    const base = args.path ?? '.';
    const real = this.resolveRead(base);
    const sensitive = args.caseSensitive ?? true;
    let re;
    if (args.regex) {
      try {
        re = new RegExp(args.query, sensitive ? 'u' : 'iu');
      } catch (err) {
        throw new ToolError('INVALID_INPUT', `The regular expression does not compile: ${err.message}`);
      }
    }
    if (args.glob !== undefined && args.glob.length > MAX_PATTERN) throw new ToolError('INVALID_INPUT', `glob is longer than ${MAX_PATTERN} characters.`);
    const globRe = args.glob ? compileGlob(args.glob) : null;
    const limit = args.limit ?? 100;
    let offset = 0;
    if (args.cursor !== undefined) {
      const c = decodeCursor(args.cursor, 'grep');
      if (c.p !== base || c.q !== args.query) throw new ToolError('INVALID_INPUT', 'The cursor belongs to another search.');
      offset = c.o;
    }
    const needle = sensitive ? args.query : args.query.toLowerCase();
    const files = fs.statSync(real).isFile()
      ? [{ rel: base, abs: real, kind: 'file' }]
      : [...this.walk(real, base, Infinity, 1, true)].filter((e) => e.kind === 'file');
    const matches = [];
    let seen = 0;
    let more = false;
    outer: for (const f of files) {
      if (globRe && !globRe.test(f.rel) && !(args.glob.includes('/') ? false : globRe.test(path.posix.basename(f.rel)))) continue;
      let bytes;
      try {
        bytes = fs.readFileSync(f.abs);
      } catch {
        continue;
      }
      const text = decodeUTF8(bytes);
      if (text === undefined) continue; // not UTF-8: skipped
      let hash;
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        let line = lines[i];
        if (line.endsWith('\r')) line = line.slice(0, -1);
        if (i === lines.length - 1 && line === '') break;
        let col;
        if (re) {
          const m = re.exec(line);
          col = m ? m.index : -1;
        } else {
          col = (sensitive ? line : line.toLowerCase()).indexOf(needle);
        }
        if (col < 0) continue;
        if (line.length > MAX_LINE_CHARS) throw new ToolError('LIMIT_EXCEEDED', `A line of '${f.rel}' is longer than ${MAX_LINE_CHARS} characters.`);
        if (seen++ < offset) continue;
        if (matches.length === limit) {
          more = true;
          break outer;
        }
        hash ??= sha256(bytes);
        matches.push({ path: f.rel, line: i + 1, column: col + 1, preview: line, contentHash: hash });
      }
    }
    const output = { matches, truncated: more, provenance: { source: 'workspace.searchText', trust: 'untrusted_workspace' } };
    if (more) output.nextCursor = encodeCursor({ k: 'grep', p: base, q: args.query, o: offset + matches.length });
    const inspected = [...new Set(matches.map((m) => m.path))];
    return { output, summary: `Found ${matches.length} text matches.`, inspected: inspected.length ? inspected : undefined };
  }

  /** snapshot and version of the whole workspace, for tools that run code. */
  take() {
    return snapshot.take(this.root);
  }

  // ---- workspace/fingerprint (CONTRACTS.md "Workspace fingerprint")

  #checkActive(file) {
    const rel = file.path;
    if (!isWorkspacePath(rel)) throw new PortError('PERMISSION_DENIED', `Active file path escapes the workspace: '${rel}'.`);
    const abs = this.abs(rel);
    const declared = file.kind;
    const want = file.contentHash === null ? null : normHash(file.contentHash);
    let st;
    try {
      st = fs.lstatSync(abs);
    } catch (err) {
      if (err.code !== 'ENOENT' && err.code !== 'ENOTDIR') throw new PortError('IO_ERROR', err.message);
      if ((declared === undefined || declared === 'missing') && want === null) return `${rel}\0missing`;
      throw new PortError('PRECONDITION_FAILED', `Active file is missing: '${rel}'.`);
    }
    if (declared === 'missing') throw new PortError('PRECONDITION_FAILED', `Active file was recorded as missing but exists: '${rel}'.`);
    let real = abs;
    let kind = st.isFile() ? 'file' : st.isDirectory() ? 'directory' : st.isSymbolicLink() ? 'symlink' : 'other';
    if (kind === 'symlink' && declared === undefined) {
      try {
        real = fs.realpathSync(abs);
      } catch {
        throw new PortError('PRECONDITION_FAILED', `Active file is missing: '${rel}' (a dangling symlink).`);
      }
      if (!this.#inside(real)) throw new PortError('PERMISSION_DENIED', `Active file escapes the workspace through a symlink: '${rel}'.`);
      st = fs.statSync(real);
      kind = st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other';
    }
    if (declared !== undefined && declared !== kind) throw new PortError('PRECONDITION_FAILED', `Active file kind changed: '${rel}' is a ${kind}, not a ${declared}.`);
    if (kind === 'file') {
      const hash = sha256(fs.readFileSync(real));
      if (want !== null && want !== hash) throw new PortError('PRECONDITION_FAILED', `Active file content hash changed: '${rel}'.`);
      return `${rel}\0file\0${hash}\0${st.mode & 0o7777}`;
    }
    if (kind === 'symlink') {
      const target = fs.readlinkSync(abs);
      const hash = snapshot.symlinkHash(target);
      if (want !== null && want !== hash && want !== sha256(target)) throw new PortError('PRECONDITION_FAILED', `Active file content hash changed: '${rel}' (symlink target).`);
      return `${rel}\0symlink\0${hash}`;
    }
    if (kind === 'directory') {
      if (want !== null) throw new PortError('INVALID_INPUT', `Active directory entries cannot carry a content hash: '${rel}'.`);
      let bound = `${rel}\0directory`;
      if (isDerived(rel)) {
        for (const e of this.walk(real, rel, Infinity)) {
          const s = fs.lstatSync(e.abs);
          bound += `\n${e.rel}\0${e.kind}\0${s.size}\0${s.mtimeMs}\0${s.mode & 0o7777}`;
        }
      }
      return bound;
    }
    const hash = snapshot.otherHash(st);
    if (want !== null && want !== hash) throw new PortError('PRECONDITION_FAILED', `Active file content hash changed: '${rel}' (special file).`);
    return `${rel}\0other\0${hash}`;
  }

  #fingerprint(activeFiles, dirty) {
    const bound = activeFiles.map((f) => this.#checkActive(f));
    let snap;
    try {
      snap = snapshot.take(this.root);
    } catch (err) {
      throw new PortError('IO_ERROR', `Cannot capture the workspace: ${err.message}`);
    }
    // the durable workspace (bytes and modes); derived trees are left out
    const durable = new Map([...snap].filter(([, e]) => !e.derived));
    const parts = [snapshot.version(durable), ...bound, `dirty\0${dirty ?? ''}`];
    return `sha256:${sha256(parts.join('\n'))}`;
  }

  /** workspace/fingerprint capture */
  capture(activeFiles, dirtyStateSummary) {
    return this.lock(() => {
      const stateFingerprint = this.#fingerprint(activeFiles, dirtyStateSummary);
      return { consistency: 'serialized_workspace', state: { activeFiles, dirtyStateSummary: dirtyStateSummary ?? null, stateFingerprint } };
    });
  }

  /** workspace/fingerprint verify */
  verify(state) {
    return this.lock(() => {
      const currentFingerprint = this.#fingerprint(state.activeFiles, state.dirtyStateSummary);
      return { currentFingerprint, matches: currentFingerprint === state.stateFingerprint };
    });
  }
}
