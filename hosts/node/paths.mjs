// paths.mjs: the workspace-path rule and the derived-tree rule
// (PROTOCOL.md "initialize": the workspace-path pattern evaluated as code;
// CONTRACTS.md "Evidence types": derived trees are never writes).

/**
 * isWorkspacePath applies the catalog's workspace-path pattern as code:
 * exactly ".", or a non-empty path without a leading "/" or drive letter,
 * backslash, NUL, line break, "//", trailing "/" or ".." segment.
 */
export function isWorkspacePath(p) {
  if (typeof p !== 'string' || p.length === 0) return false;
  if (p === '.') return true;
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return false;
  if (/[\\\0\n\r\u2028\u2029]/.test(p)) return false;
  if (p.includes('//') || p.endsWith('/')) return false;
  return !p.split('/').includes('..');
}

/** Directory names whose contents are generated or dependency state. */
export const DERIVED_DIRS = new Set([
  'node_modules', 'dist', 'build', 'coverage', '.cache', '__pycache__', '.pytest_cache',
  '.mypy_cache', '.ruff_cache', '.turbo', '.parcel-cache', '.next', '.nuxt', '.eslintcache',
]);

/** isDerived tells whether a workspace-relative path lies in a generated or dependency tree. */
export function isDerived(rel) {
  const segs = rel.split('/');
  if (segs.slice(0, -1).some((s) => DERIVED_DIRS.has(s))) return true;
  const base = segs[segs.length - 1];
  return DERIVED_DIRS.has(base) || base.endsWith('.log') || base.endsWith('.tsbuildinfo') || base === '.DS_Store';
}

/** Joins a workspace-relative directory and a name. */
export function joinRel(dir, name) {
  return dir === '.' || dir === '' ? name : `${dir}/${name}`;
}

/** compileGlob turns a glob into a RegExp over whole workspace-relative paths (** / * ? ; case-insensitive). */
export function compileGlob(glob) {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        if (glob[i + 2] === '/') {
          re += '(?:.*/)?';
          i += 2;
        } else {
          re += '.*';
          i += 1;
        }
      } else {
        re += '[^/]*';
      }
    } else if (c === '?') {
      re += '[^/]';
    } else {
      re += c.replace(/[.+^${}()|[\]\\/-]/g, '\\$&');
    }
  }
  return new RegExp(`^${re}$`, 'is');
}
