// policy.mjs: mode and approval policy (CONTRACTS.md "Approval flow";
// PROTOCOL.md "tool/execute" step 4, "approval/request").
import { allowedInMode } from './catalog.mjs';

const RISK = { low: 0, medium: 1, high: 2, critical: 3 };
const THRESHOLD = { strict: RISK.medium, balanced: RISK.high, 'trusted-workspace': RISK.critical };

/** needsApproval tells whether the profile asks before running the tool, and why. */
export function needsApproval(tool, profile, containmentVerified) {
  if (tool.mutability === 'external_side_effect') return `${tool.id} has external side effects`;
  if (tool.id === 'project.validate' && !containmentVerified) return 'project.validate runs repository scripts without verified containment';
  if (RISK[tool.risk] >= (THRESHOLD[profile] ?? RISK.medium)) return `approval profile ${profile} requires confirmation of ${tool.id} (${tool.risk} risk)`;
  return null;
}

/**
 * decide applies the policy in order and returns {approval, requestId?} when
 * the call may run, or {deny: CODE, message, requestId?} when it may not.
 */
export async function decide({ tool, params, session, signal, deadline, conn }) {
  if (signal.aborted || Date.now() >= deadline) return { deny: 'DENY_CANCELED', message: 'The call was cancelled or its deadline passed before it ran.' };
  if (!allowedInMode(tool, params.context.mode)) {
    return { deny: 'DENY_RUN_MODE', message: `Mode '${params.context.mode}' does not allow ${tool.id}.` };
  }
  const missing = tool.permissions.filter((p) => !session.tools.granted.has(p));
  if (missing.length) return { deny: 'DENY_MISSING_PERMISSION', message: `Permission not granted: ${missing.join(', ')}.` };
  const reason = needsApproval(tool, session.approvalProfile, session.containment.verified);
  if (!reason) return { approval: 'not_required' };
  const requestId = `${params.context.runId}:${params.callId}`;
  const timeoutMs = Math.max(1, Math.min(session.approvalTimeoutMs, deadline - Date.now()));
  const ask = conn.request('approval/request', {
    requestId,
    canonicalToolId: tool.id,
    modelName: tool.modelName,
    arguments: params.arguments,
    risk: tool.risk,
    mutability: tool.mutability,
    approvalProfile: session.approvalProfile,
    reason,
    suggestedScope: 'once',
    timeoutMs,
    context: { runId: params.context.runId, taskId: params.context.taskId, toolCallId: params.callId, mode: params.context.mode },
  }, timeoutMs, signal);
  const answer = await ask;
  if (answer.cancelled) return { deny: 'DENY_CANCELED', message: 'The call was cancelled while waiting for approval.', requestId };
  if (answer.timeout) return { deny: 'DENY_APPROVAL_TIMEOUT', message: `No approval decision within ${timeoutMs} ms.`, requestId };
  if (answer.error) {
    if (answer.error.code === -32601) return { deny: 'DENY_APPROVAL_UNAVAILABLE', message: 'No approver is available.', requestId };
    return { deny: 'DENY_APPROVAL_ERROR', message: `The approval request failed: ${answer.error.message ?? answer.error.code}.`, requestId };
  }
  if (answer.result && answer.result.approved === true) return { approval: 'granted', requestId };
  const why = answer.result && typeof answer.result.reason === 'string' ? `: ${answer.result.reason}` : '.';
  return { deny: 'DENIED_BY_HOST', message: `The approval request was denied${why}`, requestId };
}
