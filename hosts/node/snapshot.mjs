// snapshot.mjs: the host's own typed workspace snapshots, their diff (the
// only source of write evidence) and the workspace state version
// (PROTOCOL.md "tool/execute" step 5; CONTRACTS.md "Evidence types":
// writes, stateVersion, derived trees).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isDerived, joinRel } from './paths.mjs';
import { sha256 } from './fsutil.mjs';

/** Bound on the durable entries of one snapshot; a larger workspace cannot be attested. */
export const MAX_SNAPSHOT_ENTRIES = 200000;
/**
 * Entries of derived trees walked one by one; past it a derived directory
 * is bound by its own metadata only, so that a large node_modules costs a
 * bounded walk (changes deep inside it may then go unseen by stateVersion).
 */
export const MAX_DERIVED_ENTRIES = 50000;

const hashCache = new Map(); // abs path -> {key, hash}

function kindOf(st) {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  if (st.isSymbolicLink()) return 'symlink';
  return 'other';
}

/** fileHash is the bare hex SHA-256 of a file, cached by inode, size and times. */
export function fileHash(abs, st) {
  const key = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  const hit = hashCache.get(abs);
  if (hit && hit.key === key) return hit.hash;
  const hash = sha256(fs.readFileSync(abs));
  hashCache.set(abs, { key, hash });
  return hash;
}

/** symlinkHash is the bare hex hash of a symlink: SHA-256 of "symlink\0" + its target text. */
export function symlinkHash(target) {
  return sha256(`symlink\0${target}`);
}

/** otherHash is the host's fingerprint of a special file (FIFO, socket, device): its type, mode and device. */
export function otherHash(st) {
  return sha256(`other\0${st.mode}\0${st.rdev}`);
}

/** entryOf describes one entry: kind, content hash (files, symlink targets), mode, and whether it is derived. */
export function entryOf(abs, rel, st) {
  const kind = kindOf(st);
  const derived = isDerived(rel);
  const e = { kind, mode: st.mode & 0o7777, derived, hash: null };
  if (derived) {
    // generated or dependency state is bound by metadata, never by content
    e.meta = `${st.size}:${st.mtimeMs}:${e.mode}`;
    return e;
  }
  if (kind === 'file') e.hash = fileHash(abs, st);
  else if (kind === 'symlink') e.hash = symlinkHash(fs.readlinkSync(abs));
  else if (kind === 'other') e.hash = otherHash(st);
  return e;
}

/** take walks the workspace below root (never into .git, never following symlinks). */
export function take(root) {
  const entries = new Map();
  let durable = 0;
  let derived = 0;
  const walk = (absDir, relDir) => {
    let names;
    try {
      names = fs.readdirSync(absDir);
    } catch (err) {
      if (err.code === 'ENOENT') return;
      throw err;
    }
    names.sort();
    for (const name of names) {
      if (relDir === '.' && name === '.git') continue;
      const abs = path.join(absDir, name);
      const rel = joinRel(relDir, name);
      let st;
      try {
        st = fs.lstatSync(abs);
      } catch (err) {
        if (err.code === 'ENOENT') continue;
        throw err;
      }
      const e = entryOf(abs, rel, st);
      entries.set(rel, e);
      if (e.derived) derived++;
      else if (++durable > MAX_SNAPSHOT_ENTRIES) throw new Error(`the workspace has more than ${MAX_SNAPSHOT_ENTRIES} entries outside derived trees`);
      if (e.kind === 'directory' && (!e.derived || derived <= MAX_DERIVED_ENTRIES)) walk(abs, rel);
    }
  };
  walk(root, '.');
  return entries;
}

/** version is the sha256: state version of a snapshot (every entry, derived ones by metadata). */
export function version(snap) {
  const h = createHash('sha256');
  for (const rel of [...snap.keys()].sort()) {
    const e = snap.get(rel);
    h.update(`${rel}\0${e.kind}\0${e.mode}\0${e.hash ?? ''}\0${e.meta ?? ''}\n`);
  }
  return `sha256:${h.digest('hex')}`;
}

const hashOut = (e) => (e && e.kind !== 'directory' && e.hash ? `sha256:${e.hash}` : null);

/** diff compares two snapshots: typed writes of durable paths and the derived paths that changed. */
export function diff(before, after) {
  const paths = new Set([...before.keys(), ...after.keys()]);
  const writes = [];
  const derived = [];
  for (const rel of [...paths].sort()) {
    const b = before.get(rel);
    const a = after.get(rel);
    const same = b && a && b.kind === a.kind && b.mode === a.mode && b.hash === a.hash && b.meta === a.meta;
    if (same) continue;
    if ((b && b.derived) || (a && a.derived)) {
      // a directory whose only change is its timestamp is not a mutation of its own
      if (b && a && b.kind === 'directory' && a.kind === 'directory' && b.mode === a.mode) continue;
      derived.push(rel);
      continue;
    }
    if (b && a && b.kind === 'directory' && a.kind === 'directory' && b.mode === a.mode) continue;
    writes.push({
      path: rel,
      beforeKind: b ? b.kind : 'missing',
      beforeHash: hashOut(b),
      afterKind: a ? a.kind : 'missing',
      afterHash: hashOut(a),
    });
  }
  return { writes, derived };
}

/** derivedMutations is the bounded output member for changed derived paths, or undefined. */
export function derivedMutations(derived) {
  if (derived.length === 0) return undefined;
  return { count: derived.length, paths: derived.slice(0, 32), truncated: derived.length > 32 };
}
