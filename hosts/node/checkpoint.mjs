// checkpoint.mjs: the task-state port (tool task.checkpoint;
// tools/task.checkpoint.md). State per run, durable in storeDir.
import { canonicalJSON, sha256 } from './fsutil.mjs';

/** The host's clock for updatedAt: fixed, so the output is a function of the inputs. */
export const EPOCH = '1970-01-01T00:00:00Z';

const blank = (s) => typeof s !== 'string' || s.trim() === '';

/** run executes one task.checkpoint call against store. */
export function run(store, args, context) {
  const { runId, taskId } = context;
  let state = store.taskState(runId);
  let changed = false;
  if (!state) {
    state = { goal: `Task ${taskId}`, progress: '', decisions: [], nextStep: 'Inspect the workspace.', updatedAt: EPOCH };
    changed = true;
  }
  if (args.action === 'update') {
    const next = {
      goal: args.goal === undefined ? state.goal : blank(args.goal) ? `Task ${taskId}` : args.goal,
      progress: args.progress ?? state.progress,
      decisions: args.decisions ?? [],
      nextStep: args.nextStep ?? state.nextStep,
      updatedAt: EPOCH,
    };
    if (canonicalJSON(next) !== canonicalJSON(state)) changed = true;
    state = next;
  }
  if (changed) store.saveTaskState(runId, state);
  const output = { action: args.action, checkpointId: runId, updated: args.action === 'update', checkpoint: state };
  const plan = { completed: blank(state.progress) ? [] : [state.progress], inProgress: blank(state.nextStep) ? null : state.nextStep, pending: [] };
  if (state.decisions.length) plan.decisions = [...state.decisions];
  const effects = { plan };
  if (!blank(state.nextStep)) effects.nextAction = state.nextStep;
  if (args.action === 'update' || changed) effects.stateVersion = `sha256:${sha256(canonicalJSON(state))}`;
  const summary = args.action === 'update' ? 'Updated the bounded task checkpoint.' : 'Read the bounded task checkpoint.';
  return { output, summary, effects };
}
