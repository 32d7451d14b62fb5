import MagicString, { type SourceMap } from 'magic-string';
import { type Plugin, parseAst } from 'vite';

/** The contract's modules (packages/contract/src), whose top-level constants are its zod schemas and rules. */
const CONTRACT_FILE = /[\\/]packages[\\/]contract[\\/]src[\\/][^\\/]+\.ts$/;

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** A call, or a call on the result of one (`z.object({...}).extend({...}).describe('...')`). */
function isCallChain(node: Node | null | undefined): boolean {
  if (!node) return false;
  if (node.type === 'CallExpression') return true;
  if (node.type === 'MemberExpression') return isCallChain(node.object as Node);
  return false;
}

/**
 * Every top-level `const` of a contract module whose value is built by a call (a zod schema: `z.object(...)`,
 * `Base.extend(...)`, `z.enum(...).optional().describe(...)`), wrapped in an immediately called arrow marked
 * `@__PURE__`: the same value, built at the same moment, but the bundler may now leave out the ones the console
 * never uses. Without the mark each such call counts as a side effect (zod's `describe` does write to its global
 * registry), so the signed-in chunk built every schema of every contract module it imports, the server's query
 * and body schemas too, in the longest task of a signed-in page's start (decision 0006). Nothing the console reads of
 * a dropped schema is lost: a schema it uses is kept by that use, with the constants it is made of.
 */
export function markSchemasPure(code: string, id = 'contract.ts'): { code: string; map: SourceMap } | null {
  const ast = parseAst(code) as unknown as { body: Node[] };
  const s = new MagicString(code);
  let changed = false;
  for (const statement of ast.body) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement;
    if (declaration?.type !== 'VariableDeclaration' || declaration.kind !== 'const') continue;
    for (const declarator of declaration.declarations as Node[]) {
      const init = declarator.init as Node | null;
      if (!isCallChain(init) || !init) continue;
      s.appendLeft(init.start, '/* @__PURE__ */ (() => ');
      s.appendRight(init.end, ')()');
      changed = true;
    }
  }
  return changed ? { code: s.toString(), map: s.generateMap({ hires: true, source: id }) } : null;
}

/** Marks the contract's schemas pure in production builds (see markSchemasPure); dev and tests are untouched. */
export function pureSchemasPlugin(): Plugin {
  return {
    name: 'forecourt-pure-schemas',
    apply: 'build',
    // After TypeScript has been stripped: the AST is plain JavaScript's.
    enforce: 'post',
    transform(code, id) {
      if (!CONTRACT_FILE.test(id.split('?')[0])) return null;
      return markSchemasPure(code, id);
    },
  };
}
