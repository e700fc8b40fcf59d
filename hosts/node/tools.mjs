// tools.mjs: tool/execute (PROTOCOL.md "tool/execute" steps 1-7;
// CONTRACTS.md "Result envelope", "Evidence types"). Routes a call among the
// active tools, validates its arguments, answers a recorded result for a
// repeated idempotency key, applies the policy, runs the tool, validates the
// output and answers the envelope.
import fs from 'node:fs';
import * as checkpoint from './checkpoint.mjs';
import * as command from './command.mjs';
import * as git from './git.mjs';
import * as project from './project.mjs';
import { decide } from './policy.mjs';
import { ErrorCodes, RpcError } from './protocol.mjs';
import * as snapshot from './snapshot.mjs';
import { ToolError } from './workspace.mjs';

/** The canonical IDs this host backs with real adapters; research.search only with a configured provider. */
export function backed(research) {
  const ids = [
    'catalog.search', 'command.run', 'git.exec', 'project.detect', 'project.validate', 'research.fetch', 'task.checkpoint',
    'workspace.edit', 'workspace.glob', 'workspace.grep', 'workspace.list', 'workspace.read', 'workspace.write',
  ];
  if (research.canSearch) ids.push('research.search');
  return ids.sort();
}

const TRUST = {
  'workspace.write': 'trusted', 'workspace.edit': 'trusted', 'task.checkpoint': 'trusted', 'catalog.search': 'trusted',
  'command.run': 'external', 'project.validate': 'external', 'research.fetch': 'external', 'research.search': 'external',
};

// effects member -> the capability that allows it
const CAPABILITY = {
  approval: 'approval', approvalRequestId: 'approval', inspectedPaths: 'inspect', writes: 'write',
  stateVersion: 'state_version', validations: 'validate', diffReview: 'diff_review', plan: 'plan', nextAction: 'plan',
  researchSources: 'research',
};

function failure(tool, canonicalToolId, callId, code, message, effects) {
  const error = { code, message, retryable: code === 'IO_ERROR' || code === 'UNAVAILABLE' };
  const env = {
    ok: false,
    canonicalToolId,
    content: JSON.stringify({ ok: false, error, toolCallId: callId }),
    summary: message,
    trust: 'trusted', // the content is the host's own error object, not tool output
    error,
  };
  if (effects) {
    env.effects = effects;
    env.effectsAuthority = 'host';
  }
  return env;
}

function describeErrors(errors) {
  return errors.map((e) => {
    const at = e.instancePath || '/';
    if (e.keyword === 'additionalProperties') return `${at}: unknown property '${e.params.additionalProperty}'`;
    if (e.keyword === 'required') return `${at}: missing required property '${e.params.missingProperty}'`;
    return `${at}: ${e.message}`;
  }).join('; ');
}

/**
 * execute answers one tool/execute. session holds {tools, ws, store,
 * validators, approvalProfile, approvalTimeoutMs, containment, conn}.
 */
export async function execute(session, params, signal) {
  const { callId, modelName } = params;
  const deadline = Date.now() + params.timeoutMs;
  // 1. route among the active tools
  const tool = session.tools.route(modelName);
  if (!tool) return failure(null, modelName, callId, 'UNKNOWN_TOOL', `Tool '${modelName}' is not active in this turn.`);
  // 2. validate the arguments
  const args = params.arguments;
  const validateInput = session.validators.input(tool);
  if (args === null || typeof args !== 'object' || Array.isArray(args) || !validateInput(args)) {
    const detail = validateInput.errors ? describeErrors(validateInput.errors) : 'arguments is not an object';
    return failure(tool, tool.id, callId, 'INVALID_TOOL_ARGUMENTS', `Invalid arguments for ${modelName}: ${detail}.`);
  }
  // 3. a recorded result for this key
  const keyed = tool.idempotency === 'with_key' && params.idempotencyKey;
  if (keyed) {
    const recalled = session.store.recalled(tool.id, params.idempotencyKey);
    if (recalled) return recalled;
  }
  // 4. policy
  const decision = await decide({ tool, params, session, signal, deadline, conn: session.conn });
  const caps = new Set(session.tools.capabilities(tool.id));
  if (decision.deny) {
    const effects = caps.has('approval') ? { approval: 'denied', ...(decision.requestId ? { approvalRequestId: decision.requestId } : {}) } : undefined;
    return failure(tool, tool.id, callId, decision.deny, decision.message, effects);
  }
  // 5. run the tool
  let r;
  try {
    r = await run(session, tool, args, params, signal, deadline);
  } catch (err) {
    if (err instanceof ToolError && !err.unknown) return failure(tool, tool.id, callId, err.code, err.message);
    session.log(`unknown outcome of ${tool.id}: ${err?.stack ?? err}`);
    throw new RpcError(ErrorCodes.unknownOutcome, `The outcome of ${tool.id} is unknown.`, {
      canonicalToolId: tool.id,
      reason: String(err?.message ?? err) || 'adapter failure',
    });
  }
  // 6. validate the output
  const validateOutput = session.validators.output(tool);
  if (!validateOutput(r.output)) {
    throw new RpcError(ErrorCodes.unknownOutcome, `The output of ${tool.id} fails its schema.`, {
      canonicalToolId: tool.id,
      reason: `output fails the output schema: ${describeErrors(validateOutput.errors)}`,
    });
  }
  // 7. the envelope
  const effects = { approval: decision.approval };
  if (decision.requestId) effects.approvalRequestId = decision.requestId;
  if (r.inspected) effects.inspectedPaths = r.inspected;
  if (r.diffReview) effects.diffReview = r.diffReview;
  if (r.validations) effects.validations = r.validations;
  if (r.researchSources && r.researchSources.length) effects.researchSources = r.researchSources;
  if (r.effects) Object.assign(effects, r.effects);
  for (const k of Object.keys(effects)) if (effects[k] === undefined || !caps.has(CAPABILITY[k])) delete effects[k];
  const env = {
    ok: true,
    canonicalToolId: tool.id,
    content: JSON.stringify(r.output),
    summary: r.summary,
    trust: TRUST[tool.id] ?? 'workspace',
    outputLimits: { maxBytes: tool.maxOutputBytes, maxTokens: tool.maxOutputTokens, tailFraction: 0.25 },
  };
  if (r.artifactRef) env.artifactRef = r.artifactRef;
  if (Object.keys(effects).length) {
    env.effects = effects;
    env.effectsAuthority = 'host';
  }
  if (keyed) session.store.record(tool.id, params.idempotencyKey, env);
  return env;
}

// workspace evidence of a mutation: writes, stateVersion (only when something changed)
function workspaceEffects(d) {
  const effects = {};
  if (d.writes.length) effects.writes = d.writes;
  if (d.writes.length || d.derived.length) effects.stateVersion = d.stateVersion;
  return effects;
}

async function bracket(session, fn) {
  return session.ws.lock(async () => {
    const before = session.ws.take();
    const result = await fn();
    let d;
    try {
      const after = session.ws.take();
      d = { ...snapshot.diff(before, after), stateVersion: snapshot.version(after) };
    } catch (err) {
      err.unknown = true;
      throw err;
    }
    return { result, d };
  });
}

async function run(session, tool, args, params, signal, deadline) {
  const { ws, store } = session;
  switch (tool.id) {
    case 'workspace.read':
      return ws.read(args);
    case 'workspace.list':
      return ws.list(args);
    case 'workspace.glob':
      return ws.glob(args);
    case 'workspace.grep':
      return ws.grep(args);
    case 'workspace.write':
    case 'workspace.edit': {
      const r = await ws.lock(() => (tool.id === 'workspace.write' ? ws.write(args) : ws.edit(args)));
      return { ...r, effects: workspaceEffects(r.effects) };
    }
    case 'catalog.search': {
      const { output, changed } = session.tools.search(args);
      return { output, summary: `Activated ${output.activated.length} matching tool(s).`, effects: changed ? { stateVersion: output.activeHash } : {} };
    }
    case 'research.fetch':
      return session.research.fetch(args, { signal, deadline });
    case 'research.search':
      return session.research.search(args, { signal, deadline });
    case 'task.checkpoint':
      return checkpoint.run(store, args, params.context);
    case 'git.exec':
      return git.exec(ws.root, args, signal);
    case 'project.detect': {
      const rel = args.path ?? '.';
      const real = project.checkDir(ws, rel);
      const output = project.detect(real, rel);
      return { output, summary: `Detected ${output.manifests.length} manifest(s) and ${output.languages.length} language(s).`, inspected: [rel] };
    }
    case 'project.validate': {
      const rel = args.path ?? '.';
      const real = project.checkDir(ws, rel);
      const containment = { refuse: session.containmentMode === 'required' && !session.containment.verified, status: session.containment };
      const { result, d } = await bracket(session, () => project.validate({
        real, rel, checks: args.checks, timeoutMs: args.timeoutMs, deadline, signal, spillDir: store.spillDir, containment,
      }));
      const output = result.output;
      const dm = snapshot.derivedMutations(d.derived);
      if (dm) output.derivedMutations = dm;
      return {
        output,
        summary: output.passed ? 'Project validation passed.' : 'Project validation did not pass.',
        validations: result.validations,
        effects: workspaceEffects(d),
      };
    }
    case 'command.run': {
      if (session.containmentMode === 'required' && !session.containment.verified) {
        throw new ToolError('UNAVAILABLE', command.unavailableMessage(session.containment));
      }
      command.checkCommand(args.command, args.env);
      const cwdRel = args.cwd ?? '.';
      const cwd = ws.resolveRead(cwdRel);
      if (!fs.statSync(cwd).isDirectory()) throw new ToolError('INVALID_INPUT', `cwd is not a directory: '${cwdRel}'.`);
      if (Date.now() >= deadline) throw new ToolError('DEADLINE_EXCEEDED', 'The call deadline passed before the command could start.');
      const { result, d } = await bracket(session, () => command.run({
        command: args.command,
        cwd,
        env: args.env,
        timeoutMs: Math.min(args.timeoutMs ?? 120000, Math.max(0, deadline - Date.now())),
        signal,
        spillDir: store.spillDir,
        containment: session.containment,
      }));
      const output = {
        command: args.command,
        cwd: cwdRel,
        exitCode: result.exitCode,
        stdout: result.stdout,
        stderr: result.stderr,
        timedOut: result.timedOut,
        cancelled: result.cancelled,
        truncated: result.truncated,
      };
      const dm = snapshot.derivedMutations(d.derived);
      if (dm) output.derivedMutations = dm;
      let summary = `Command exited with exit code ${result.exitCode}.`;
      if (result.timedOut) summary = 'Command timed out and was killed with its process group.';
      if (result.cancelled) summary = 'Command was cancelled and its process group was killed.';
      return {
        output,
        summary,
        effects: workspaceEffects(d),
        artifactRef: result.spillFiles.length ? `node-spill://${result.spillFiles.join(',')}` : undefined,
      };
    }
    default:
      throw new ToolError('UNAVAILABLE', `${tool.id} is not backed by an adapter on this host.`);
  }
}
