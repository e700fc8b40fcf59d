// fsutil.mjs: hashing, durable file writes and the port-error type shared by
// every port of the host (PROTOCOL.md "Fresh-host resume": temporary file,
// fsync, rename, fsync of the directory).
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Lowercase hex SHA-256 of a string or buffer. */
export function sha256(data) {
  return createHash('sha256').update(data).digest('hex');
}

/** A failure that crosses the wire as a port error (CONTRACTS.md "Port error codes"). */
export class PortError extends Error {
  constructor(code, message, retryable = code === 'IO_ERROR' || code === 'UNAVAILABLE') {
    super(message);
    this.code = code;
    this.retryable = retryable;
  }
  toJSON() {
    return { code: this.code, message: this.message, retryable: this.retryable };
  }
}

/** Writes data to file durably: a temporary file beside it, fsync, rename, fsync of the directory. */
export function writeFileDurable(file, data, mode) {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, 'wx', mode ?? 0o600);
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(dir);
}

/** fsyncs a directory so that a rename in it is durable. */
export function fsyncDir(dir) {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads and parses a JSON file, or returns undefined when it does not exist. */
export function readJSON(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  }
  return JSON.parse(text);
}

/** JSON Canonicalization Scheme (RFC 8785) for the plain values the host hashes. */
export function canonicalJSON(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJSON(value[k])}`).join(',')}}`;
}
