// validate.mjs: JSON Schema validation with ajv (PROTOCOL.md "What is
// validated"): the params the harness sends (hosts/wire/schema) and each
// tool's input and output schemas from the catalog.
import fs from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';

const SCHEMA_DIR = new URL('../wire/schema/', import.meta.url);

/** Validators compiles and caches the schemas. */
export class Validators {
  constructor() {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, unicodeRegExp: true });
    this.params = new Map();
    this.tools = new Map();
  }

  /** paramsOf returns the validator of a method's params (e.g. "tool/execute"), or null when it has no schema. */
  paramsOf(method) {
    if (this.params.has(method)) return this.params.get(method);
    let v = null;
    const url = new URL(`${method.replace('/', '-')}.params.json`, SCHEMA_DIR);
    if (fs.existsSync(url)) {
      const schema = JSON.parse(fs.readFileSync(url, 'utf8'));
      v = this.ajv.compile(schema);
    }
    this.params.set(method, v);
    return v;
  }

  #tool(tool, which) {
    const key = `${tool.id}\0${which}`;
    if (!this.tools.has(key)) this.tools.set(key, this.ajv.compile(tool[which]));
    return this.tools.get(key);
  }

  /** input validator of a catalog tool. */
  input(tool) {
    return this.#tool(tool, 'inputSchema');
  }

  /** output validator of a catalog tool. */
  output(tool) {
    return this.#tool(tool, 'outputSchema');
  }
}
