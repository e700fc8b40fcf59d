#!/usr/bin/env node
// host.mjs: the entry point. A host of the AI Coder runtime that conform can
// certify: JSON-RPC 2.0 on stdin/stdout (PROTOCOL.md), its log on stderr.
// Run it as `node hosts/node/host.mjs` from any directory.
import fs from 'node:fs';
import path from 'node:path';
import { ToolSet } from './catalog.mjs';
import * as command from './command.mjs';
import { PortError } from './fsutil.mjs';
import { Connection, ErrorCodes, RpcError } from './protocol.mjs';
import { Store } from './store.mjs';
import { Research } from './research.mjs';
import { backed, execute } from './tools.mjs';
import { Validators } from './validate.mjs';
import { Workspace } from './workspace.mjs';

const HOST = { name: 'conform-node-host', version: '0.1.0' };
const log = (msg) => process.stderr.write(`[node-host] ${msg}\n`);

const validators = new Validators();
let session = null;
let shuttingDown = false;

function portFailure(err) {
  if (err instanceof PortError) return new RpcError(ErrorCodes.portFailure, err.message, err.toJSON());
  return new RpcError(ErrorCodes.portFailure, `I/O failure: ${err.message}`, { code: 'IO_ERROR', message: String(err.message), retryable: true });
}

async function port(fn) {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof RpcError) throw err;
    throw portFailure(err);
  }
}

function overlaps(a, b) {
  const rel = path.relative(a, b);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function initialize(p) {
  if (session) throw new RpcError(ErrorCodes.invalidRequest, 'The host is already initialized.');
  let root;
  let storeDir;
  try {
    root = fs.realpathSync(p.workspaceRoot);
    if (!fs.statSync(root).isDirectory()) throw new Error('not a directory');
  } catch (err) {
    throw new RpcError(ErrorCodes.invalidParams, `workspaceRoot is not a usable directory (${err.code ?? err.message}): give an existing absolute directory.`);
  }
  const lexical = path.resolve(p.storeDir);
  if (overlaps(root, lexical) || overlaps(lexical, root) || overlaps(path.resolve(p.workspaceRoot), lexical)) {
    throw new RpcError(ErrorCodes.invalidParams, 'storeDir overlaps the workspace: give a directory outside it.');
  }
  try {
    fs.mkdirSync(p.storeDir, { recursive: true });
    storeDir = fs.realpathSync(p.storeDir);
  } catch (err) {
    throw new RpcError(ErrorCodes.invalidParams, `storeDir cannot be created (${err.code ?? err.message}): give a writable absolute directory outside the workspace.`);
  }
  if (overlaps(root, storeDir) || overlaps(storeDir, root)) {
    throw new RpcError(ErrorCodes.invalidParams, 'storeDir overlaps the workspace: give a directory outside it.');
  }
  const containment = command.containmentStatus(p.containment, p.forbidContainmentBackends === true, root);
  const research = new Research({ allowLoopback: p.research?.allowLoopback ?? [], env: process.env });
  const backedIds = backed(research);
  const tools = new ToolSet(p.catalog, {
    backed: new Set(backedIds), mode: p.mode, toolProfile: p.toolProfile, effectProfile: p.effectProfile,
  });
  session = {
    ws: new Workspace(root),
    store: new Store(storeDir),
    tools,
    validators,
    approvalProfile: p.approvalProfile,
    approvalTimeoutMs: p.approvalTimeoutMs ?? 30000,
    containmentMode: p.containment,
    containment,
    research,
    conn,
    log,
  };
  const backedTools = backedIds.filter((id) => p.catalog.tools.some((t) => t.id === id));
  return {
    protocolVersion: '1',
    host: HOST,
    tools: backedTools,
    commandEnvironment: command.commandEnvironment(),
    containment,
    capabilities: { store: true, trace: true, spill: true, fingerprint: true },
    doubles: [],
  };
}

async function handle(method, params, { signal }) {
  const v = validators.paramsOf(method);
  if (method === 'shutdown') {
    shuttingDown = true;
    setImmediate(shutdown);
    return {};
  }
  if (method === 'initialize') {
    if (v && !v(params)) throw new RpcError(ErrorCodes.invalidParams, `Invalid params: ${v.errors.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`);
    return initialize(params);
  }
  if (!session) throw new RpcError(ErrorCodes.notInitialized, 'The host is not initialized: send initialize first.');
  if (!KNOWN.has(method)) throw new RpcError(ErrorCodes.methodNotFound, `Method not found: ${method}`);
  if (v && !v(params)) throw new RpcError(ErrorCodes.invalidParams, `Invalid params: ${v.errors.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`);
  const s = session;
  switch (method) {
    case 'tools/list':
      return s.tools.list();
    case 'tools/restore': {
      const r = s.tools.restore(params.names, params.snapshotHash);
      if (r.conflict) throw new RpcError(ErrorCodes.portFailure, r.conflict, { code: 'CONFLICT', message: r.conflict, retryable: false });
      return r.result;
    }
    case 'tool/execute':
      return execute(s, params, signal);
    case 'workspace/fingerprint':
      return port(() => (params.action === 'capture'
        ? s.ws.capture(params.activeFiles, params.dirtyStateSummary ?? null)
        : s.ws.verify(params.state)));
    case 'store/put':
      return port(() => s.store.put(params.runId, params.kind, params.document));
    case 'store/get':
      return port(() => s.store.get(params.runId, params.kind));
    case 'store/list':
      return port(() => s.store.list(params.runId, params.kind));
    case 'trace/append':
      return port(() => s.store.append(params.event));
    case 'trace/flush':
      return port(() => s.store.flush());
    case 'trace/list':
      return port(() => s.store.traceList(params.runId));
    default:
      throw new RpcError(ErrorCodes.methodNotFound, `Method not found: ${method}`);
  }
}

const KNOWN = new Set([
  'tools/list', 'tools/restore', 'tool/execute', 'workspace/fingerprint', 'store/put', 'store/get', 'store/list',
  'trace/append', 'trace/flush', 'trace/list',
]);

function shutdown() {
  for (const ctl of conn.inFlight.values()) ctl.abort();
  command.killAll();
  process.stdout.write('', () => process.exit(0));
}

const conn = new Connection(process.stdin, process.stdout, handle, log);
process.on('SIGTERM', () => {
  command.killAll();
  process.exit(143);
});
conn.run().then(() => {
  command.killAll();
  if (!shuttingDown) process.exit(0);
});
