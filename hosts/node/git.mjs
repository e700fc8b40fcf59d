// git.mjs: the git port (tool git.exec): read-only status, diff and log with
// hooks, pagers, fsmonitor, external diff, textconv and filters off, optional
// locks disabled, paths as data after "--" (tools/git.exec.md).
import { spawn } from 'node:child_process';
import { sha256 } from './fsutil.mjs';
import { ToolError } from './workspace.mjs';

const MAX_OUTPUT = 32000;
const MAX_UNTRACKED = 256;

const SAFE_CONFIG = [
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.pager=cat',
  '-c', 'core.fsmonitor=false',
  '-c', 'core.untrackedCache=false',
  '-c', 'diff.external=',
  '-c', 'color.ui=false',
  '--no-pager',
  '--no-optional-locks',
  '--literal-pathspecs', // a path is a name, never a glob or magic pathspec
];

function git(root, args, signal) {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...SAFE_CONFIG, ...args], {
      cwd: root,
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', GIT_LITERAL_PATHSPECS: '1', LC_ALL: 'C' },
      signal,
    });
    const out = [];
    const err = [];
    let size = 0;
    child.stdout.on('data', (c) => {
      size += c.length;
      if (size <= 4 * MAX_OUTPUT + 65536) out.push(c);
    });
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), size }));
  });
}

function failed(r) {
  throw new ToolError('GIT_COMMAND_FAILED', r.stderr.trim() || `git exited with ${r.code}.`);
}

/** exec runs one git.exec call: {output, summary, inspected, diffReview?}. */
export async function exec(root, args, signal) {
  const paths = args.paths ?? [];
  const sep = ['--', ...paths];
  let stdout = '';
  let stderr = '';
  let truncated = false;
  if (args.action === 'status') {
    const r = await git(root, ['status', '--short', ...sep], signal);
    if (r.code !== 0) failed(r);
    ({ stdout, stderr } = r);
  } else if (args.action === 'log') {
    const r = await git(root, ['log', '--oneline', '--no-decorate', '-n', String(args.limit ?? 50), ...sep], signal);
    if (r.code !== 0) failed(r);
    ({ stdout, stderr } = r);
  } else {
    const diffFlags = ['--no-ext-diff', '--no-textconv', '--no-color'];
    const sections = [];
    const work = await git(root, ['diff', ...diffFlags, ...sep], signal);
    if (work.code !== 0) failed(work);
    if (work.stdout) sections.push(`[working-tree]\n${work.stdout}`);
    const staged = await git(root, ['diff', '--cached', ...diffFlags, ...sep], signal);
    if (staged.code !== 0) failed(staged);
    if (staged.stdout) sections.push(`[staged]\n${staged.stdout}`);
    const others = await git(root, ['ls-files', '--others', '--exclude-standard', '-z', ...sep], signal);
    if (others.code !== 0) failed(others);
    const files = others.stdout.split('\0').filter(Boolean).sort();
    if (files.length > MAX_UNTRACKED) truncated = true;
    for (const file of files.slice(0, MAX_UNTRACKED)) {
      const r = await git(root, ['diff', '--no-index', ...diffFlags, '--', '/dev/null', file], signal);
      if (r.code !== 0 && r.code !== 1) failed(r);
      if (r.stdout) sections.push(`[untracked]\n${r.stdout}`);
    }
    stdout = sections.join('\n');
    stderr = [work.stderr, staged.stderr, others.stderr].join('');
  }
  if (Buffer.byteLength(stdout) > MAX_OUTPUT) {
    truncated = true;
    stdout = Buffer.from(stdout).subarray(0, MAX_OUTPUT).toString('utf8').replace(/\uFFFD+$/, '');
  }
  if (Buffer.byteLength(stderr) > 8000) stderr = Buffer.from(stderr).subarray(0, 8000).toString('utf8').replace(/\uFFFD+$/, '');
  const output = { action: args.action, stdout, stderr, exitCode: 0, truncated };
  const result = { output, summary: `Git ${args.action} exited with 0.`, inspected: paths.length ? [...paths] : ['.'] };
  if (args.action === 'diff' && !truncated) {
    result.diffReview = { diffHash: sha256(JSON.stringify({ action: 'diff', paths, stdout })) };
  }
  return result;
}
