import { parseSync } from '@swc/core';

// One walk over an SWC syntax tree for the repository's checks (check-strings, check-own-keys):
// `visit(node, parent)` for every node with a type, depth first; `parent` is the nearest typed node.
export function walk(node, visit, parent = null) {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit, parent);
    return;
  }
  if (typeof node.type === 'string') visit(node, parent);
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'span' && value && typeof value === 'object')
      walk(value, visit, typeof node.type === 'string' ? node : parent);
  }
}

/**
 * A TypeScript source parsed with SWC, with `lineOf(node)` (1-based) and `marked(line, tag)`: the
 * line or the one above carries a `// <tag>` exception. Throws when SWC cannot parse it.
 */
export function parseSource(code, tsx) {
  // A leading `;` anchors the spans (swc counts bytes from 1, and on across calls) at byte 0.
  const bytes = Buffer.from(`;${code}`);
  const ast = parseSync(`;${code}`, { syntax: 'typescript', tsx });
  const base = ast.body[0].span.start;
  const lines = code.split('\n');
  const lineOf = (node) =>
    bytes
      .subarray(0, node.span.start - base)
      .toString('utf8')
      .split('\n').length;
  const marked = (line, tag) => lines[line - 1]?.includes(tag) || lines[line - 2]?.includes(tag) || false;
  return { ast, lineOf, marked };
}
