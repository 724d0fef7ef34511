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
