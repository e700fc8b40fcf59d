// project.mjs: the project port (tools project.detect and project.validate;
// tools/project.detect.md, tools/project.validate.md). Detection reads
// manifests and never guesses commands; validation runs only declared
// package.json scripts, through the command port.
import fs from 'node:fs';
import path from 'node:path';
import { run, unavailableMessage } from './command.mjs';
import { joinRel } from './paths.mjs';
import { ToolError } from './workspace.mjs';

/** Depth limit of the scan, declared as scan.maxDepth. */
export const MAX_DEPTH = 20;
/** Entry limit of the scan. */
export const MAX_ENTRIES = 20000;
/** Directories the scan never enters (all named in warnings). */
export const EXCLUDED = ['.git', 'coverage', 'dist', 'node_modules'];

const LANGUAGES = {
  '.c': 'C', '.h': 'C',
  '.cc': 'C++', '.cpp': 'C++', '.cxx': 'C++', '.hpp': 'C++', '.hh': 'C++', '.hxx': 'C++',
  '.cs': 'C#', '.dart': 'Dart', '.go': 'Go', '.java': 'Java',
  '.js': 'JavaScript', '.jsx': 'JavaScript', '.mjs': 'JavaScript', '.cjs': 'JavaScript',
  '.kt': 'Kotlin', '.kts': 'Kotlin', '.php': 'PHP', '.py': 'Python', '.rb': 'Ruby', '.rs': 'Rust',
  '.swift': 'Swift', '.ts': 'TypeScript', '.tsx': 'TypeScript', '.mts': 'TypeScript', '.cts': 'TypeScript',
  '.vue': 'Vue',
};

const MANIFESTS = new Set([
  'package.json', 'Cargo.toml', 'pyproject.toml', 'go.mod', 'requirements.txt', 'setup.py', 'Pipfile',
  'pom.xml', 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'Gemfile', 'composer.json', 'pubspec.yaml',
  'Package.swift', 'CMakeLists.txt', 'deno.json',
]);

/** detect scans the tree below the real directory dir (workspace-relative rel). */
export function detect(real, rel) {
  const languages = new Set();
  const manifests = [];
  const warnings = [];
  let entries = 0;
  let deepest = 0;
  let complete = true;
  const walk = (dir, relDir, depth) => {
    let names;
    try {
      names = fs.readdirSync(dir).sort();
    } catch (err) {
      complete = false;
      warnings.push(`Could not read '${relDir}': ${err.code ?? err.message}.`);
      return;
    }
    for (const name of names) {
      if (EXCLUDED.includes(name)) continue;
      if (entries >= MAX_ENTRIES) {
        if (complete) warnings.push(`The scan stopped after ${MAX_ENTRIES} entries; absence of a file is not proof.`);
        complete = false;
        return;
      }
      entries++;
      deepest = Math.max(deepest, depth);
      const abs = path.join(dir, name);
      const r = joinRel(relDir, name);
      let st;
      try {
        st = fs.lstatSync(abs);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (depth >= MAX_DEPTH) {
          if (complete) warnings.push(`The scan stopped at depth ${MAX_DEPTH}; absence of a file is not proof.`);
          complete = false;
          continue;
        }
        walk(abs, r, depth + 1);
      } else if (st.isFile()) {
        const lang = LANGUAGES[path.extname(name).toLowerCase()];
        if (lang) languages.add(lang);
        if (MANIFESTS.has(name) || name.endsWith('.csproj')) manifests.push(r);
      }
    }
  };
  walk(real, rel, 1);
  warnings.unshift(`Project scan completeness applies to the host-visible tree; excluded directory names: ${EXCLUDED.join(', ')}.`);
  let commands = {};
  const pkgRel = joinRel(rel, 'package.json');
  const pkg = readPackage(real, pkgRel, warnings);
  if (pkg && pkg.scripts && typeof pkg.scripts === 'object' && !Array.isArray(pkg.scripts)) {
    commands = Object.fromEntries(Object.entries(pkg.scripts).filter(([, v]) => typeof v === 'string'));
  }
  const output = {
    projectRoot: rel,
    languages: [...languages].sort(),
    manifests: manifests.sort(),
    commands,
    scan: { complete, entriesScanned: entries, deepestDepth: deepest, maxDepth: MAX_DEPTH },
    warnings,
  };
  const pm = packageManager(real);
  if (pm) output.packageManager = pm;
  return output;
}

function readPackage(real, pkgRel, warnings) {
  let text;
  try {
    text = fs.readFileSync(path.join(real, 'package.json'), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const pkg = JSON.parse(text);
    if (pkg === null || typeof pkg !== 'object' || Array.isArray(pkg)) throw new Error('not a JSON object');
    if (pkg.scripts !== undefined) {
      if (pkg.scripts === null || typeof pkg.scripts !== 'object' || Array.isArray(pkg.scripts)) {
        if (warnings) warnings.push(`Malformed manifest ${pkgRel}: "scripts" is not an object; no commands were read from it.`);
        return { ...pkg, scripts: {} };
      }
      const bad = Object.keys(pkg.scripts).filter((k) => typeof pkg.scripts[k] !== 'string');
      if (bad.length && warnings) warnings.push(`Malformed manifest ${pkgRel}: scripts ${bad.map((k) => JSON.stringify(k)).join(', ')} are not strings and were left out.`);
    }
    return pkg;
  } catch (err) {
    if (warnings) warnings.push(`Malformed manifest ${pkgRel}: ${err.message}`);
    return null;
  }
}

function packageManager(real) {
  const has = (f) => {
    try {
      return fs.statSync(path.join(real, f)).isFile();
    } catch {
      return false;
    }
  };
  if (has('pnpm-lock.yaml')) return 'pnpm';
  if (has('yarn.lock')) return 'yarn';
  if (has('bun.lockb') || has('bun.lock')) return 'bun';
  if (has('package.json')) return 'npm';
  return undefined;
}

const STATUS = { passed: 'passed', skipped: 'not_run' };

/**
 * validate runs each requested check (deduplicated, in request order) as
 * "<pm> run <check>" when package.json declares it; returns the output and
 * the validations evidence.
 */
export async function validate({ real, rel, checks, timeoutMs, deadline, signal, spillDir, containment }) {
  const pkg = readPackage(real, joinRel(rel, 'package.json'));
  const scripts = pkg && typeof pkg.scripts === 'object' && pkg.scripts ? pkg.scripts : {};
  const pm = packageManager(real) ?? 'npm';
  const results = [];
  let cancelled = false;
  for (const check of [...new Set(checks)]) {
    if (typeof scripts[check] !== 'string') {
      results.push({ check, status: 'skipped', summary: `No '${check}' script was detected.` });
      continue;
    }
    const command = `${pm} run ${check}`;
    if (containment.refuse) {
      results.push({ check, status: 'failed', summary: unavailableMessage(containment.status), command });
      continue;
    }
    if (cancelled || signal.aborted) {
      cancelled = true;
      results.push({ check, status: 'cancelled', summary: 'The validation was cancelled before this check ran.', command });
      continue;
    }
    const limit = Math.min(timeoutMs ?? 120000, Math.max(0, deadline - Date.now()));
    const r = await run({ command, cwd: real, env: {}, timeoutMs: limit, signal, spillDir, containment: containment.status });
    const text = `${r.stdout}\n${r.stderr}`.trim();
    const summary = text.length > 2000 ? `…${text.slice(-2000)}` : text || `exit code ${r.exitCode}`;
    let status = r.exitCode === 0 ? 'passed' : 'failed';
    if (r.timedOut) status = 'timed_out';
    if (r.cancelled) {
      status = 'cancelled';
      cancelled = true;
    }
    results.push({ check, status, summary, command, exitCode: r.exitCode });
  }
  const passed = results.every((r) => r.status === 'passed' || r.status === 'skipped');
  const validations = results.map((r) => {
    const v = { id: `project.validate:${r.check}:${rel}`, detail: `${r.check}: ${r.summary}`, scope: rel === '.' ? 'workspace' : 'paths' };
    if (rel !== '.') v.paths = [rel];
    v.status = STATUS[r.status] ?? 'failed';
    return v;
  });
  return { output: { cancelled, passed, results }, validations };
}

/** checkDir resolves a project directory through the workspace. */
export function checkDir(ws, rel) {
  const real = ws.resolveRead(rel);
  if (!fs.statSync(real).isDirectory()) throw new ToolError('INVALID_INPUT', `Path is not a directory: '${rel}'.`);
  return real;
}
