// catalog.mjs: the tool set (PROTOCOL.md "tools/list", "tools/restore";
// CONTRACTS.md "Mode policy"; tools/catalog.search.md). It filters the
// catalog sent in initialize by the tools this host backs, the mode and the
// granted permissions, keeps the active set (bootstrap tools first, lazy
// ones through search_tools) and hashes it.
import { canonicalJSON, sha256 } from './fsutil.mjs';

const HOST_PERMISSIONS = ['core.storage', 'fs.workspace', 'process.execute'];
const FULL_PERMISSIONS = [...HOST_PERMISSIONS, 'core.artifacts', 'network.outbound', 'preview.local', 'user.interaction'];

/** grantedPermissions of a tool profile. */
export function grantedPermissions(toolProfile) {
  return new Set(toolProfile === 'full_contract' ? FULL_PERMISSIONS : HOST_PERMISSIONS);
}

const MODES = new Set(['auto', 'scaffold', 'refactor', 'review_only', 'validate_only']);

/** allowedInMode is the mode policy of CONTRACTS.md. */
export function allowedInMode(tool, mode) {
  if (!MODES.has(mode)) return false;
  if (mode === 'auto' || mode === 'scaffold' || mode === 'refactor') return true;
  if (tool.mutability === 'read') return true;
  if (mode === 'review_only') return tool.id === 'research.search' || tool.id === 'research.fetch';
  return tool.id === 'project.validate';
}

/** ToolSet is the filtered catalog and the active tools. */
export class ToolSet {
  constructor(catalog, { backed, mode, toolProfile, effectProfile }) {
    this.granted = grantedPermissions(toolProfile);
    this.effectProfile = effectProfile.tools ?? {};
    this.byId = new Map(catalog.tools.map((t) => [t.id, t]));
    this.byName = new Map(catalog.tools.map((t) => [t.modelName, t]));
    this.filtered = catalog.tools
      .filter((t) => backed.has(t.id) && allowedInMode(t, mode) && t.permissions.every((p) => this.granted.has(p)))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.filteredIds = new Set(this.filtered.map((t) => t.id));
    this.active = new Set(this.filtered.filter((t) => t.enabledByDefault).map((t) => t.id));
  }

  /** The active tool of a model name, or undefined. */
  route(modelName) {
    const t = this.byName.get(modelName);
    return t && this.active.has(t.id) ? t : undefined;
  }

  /** The effect capabilities a tool may attest. */
  capabilities(id) {
    return this.effectProfile[id] ?? [];
  }

  #definitions() {
    return this.filtered.filter((t) => this.active.has(t.id)).map((t) => ({
      type: 'function',
      function: { name: t.modelName, description: t.description, parameters: t.inputSchema },
    }));
  }

  /** activeHash is the sha256: hash of the active definitions. */
  activeHash() {
    return `sha256:${sha256(canonicalJSON(this.#definitions()))}`;
  }

  /** catalogHash is the sha256: hash of the filtered catalog. */
  catalogHash() {
    return `sha256:${sha256(canonicalJSON(this.filtered.map((t) => t.id)))}`;
  }

  /** list answers tools/list. */
  list() {
    const active = this.filtered.filter((t) => this.active.has(t.id));
    return {
      definitions: this.#definitions(),
      canonicalToolIds: Object.fromEntries(active.map((t) => [t.modelName, t.id])),
      // Every core tool, active or not, so the effect policy does not
      // change when catalog.search activates a tool.
      effectCapabilities: Object.fromEntries([...this.byId.keys()].map((id) => [id, [...this.capabilities(id)]])),
      snapshotHash: this.activeHash(),
    };
  }

  /** restore answers tools/restore, or throws a CONFLICT message. */
  restore(names, snapshotHash) {
    for (const name of names) {
      const t = this.byName.get(name);
      if (!t || !this.filteredIds.has(t.id)) return { conflict: `Checkpoint references unavailable tool '${name}'.` };
    }
    for (const name of names) this.active.add(this.byName.get(name).id);
    const result = this.list();
    if (result.snapshotHash !== snapshotHash) return { conflict: 'Checkpoint tool snapshot mismatch' };
    return { result };
  }

  /** search runs catalog.search: matches, activation, hashes. */
  search(args) {
    const terms = (args.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const limit = Math.min(args.limit ?? 5, 20);
    let offset = 0;
    const m = /^offset:([0-9]+)$/.exec(args.cursor ?? '');
    if (m) offset = Number.parseInt(m[1], 10);
    const scored = [];
    for (const t of this.filtered) {
      if (args.category !== undefined && t.category !== args.category) continue;
      const hay = [t.id, t.modelName, t.title, t.description, t.category].join('\n').toLowerCase();
      const score = terms.length === 0 ? 0 : terms.filter((term) => hay.includes(term)).length;
      if (terms.length && score === 0) continue;
      scored.push({ t, score });
    }
    scored.sort((a, b) => b.score - a.score || (a.t.id < b.t.id ? -1 : a.t.id > b.t.id ? 1 : 0));
    const page = scored.slice(offset, offset + limit);
    const before = this.activeHash();
    const activated = [];
    for (const { t } of page) {
      if (!this.active.has(t.id)) {
        this.active.add(t.id);
        activated.push(t.id);
      }
    }
    const output = {
      matches: page.map(({ t }) => ({ id: t.id, modelName: t.modelName, title: t.title, category: t.category, active: this.active.has(t.id) })),
      activated,
    };
    if (offset + page.length < scored.length) output.nextCursor = `offset:${offset + page.length}`;
    output.catalogHash = this.catalogHash();
    output.activeHash = this.activeHash();
    return { output, changed: output.activeHash !== before };
  }
}
