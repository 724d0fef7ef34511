#!/usr/bin/env node
// Names from outside are data, never object members (issue 27). Part of `npm run lint`; fails, with
// file:line and what to do, where the source (tests aside) uses a name as a member of a plain object
// in one of the ways that let `constructor`, `toString` or `__proto__` through:
//  1. `name in obj`: true for every inherited member. Use Object.hasOwn(obj, name).
//  2. `TABLE[name as keyof typeof TABLE]`: a cast that makes any string a key of a literal table.
//     Check with Object.hasOwn first, or make the table a Map.
//  3. a literal table typed `Record<string, …>` (or cast to one) read with a name: `TABLE[code]`
//     finds `TABLE.constructor`. Use a Map, ownValue(), or Object.hasOwn.
//  4. a `{}` written with a name: `out[name] = v`. `out.__proto__ = v` replaces the prototype
//     instead of adding a field. Use setOwn(), a Map, or dataRecord() (packages/shared/src/own.ts).
// Keys the types close (a union of literals indexing a table typed by it) pass untouched. A line
// whose name cannot come from outside may say so with `// own-keys: <why>` on it or on the line above.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseSource, walk } from './ast-walk.mjs';

const root = resolve(new URL('..', import.meta.url).pathname);
export const ROOTS = ['apps/server/src', 'apps/web/src', 'packages/shared/src', 'packages/connectors/src'];

const isLiteral = (e) => e.type === 'StringLiteral' || e.type === 'NumericLiteral';

/** `keyof …` (possibly `keyof typeof X`), the type a cast-to-key names. */
const isKeyofType = (t) => t?.type === 'TsTypeOperator' && t.op === 'keyof';

/** `Record<string, …>`: a table whose keys the types leave open. */
const isStringRecord = (t) =>
  t?.type === 'TsTypeReference' &&
  t.typeName?.type === 'Identifier' &&
  t.typeName.value === 'Record' &&
  t.typeParams?.params?.[0]?.type === 'TsKeywordType' &&
  t.typeParams.params[0].kind === 'string';

/** A cast to `Readonly<Record<string, …>>` counts too. */
const isOpenTable = (t) =>
  isStringRecord(t) ||
  (t?.type === 'TsTypeReference' &&
    t.typeName?.type === 'Identifier' &&
    t.typeName.value === 'Readonly' &&
    isStringRecord(t.typeParams?.params?.[0]));

const unwrap = (e) => {
  let node = e;
  while (node && (node.type === 'ParenthesisExpression' || node.type === 'TsNonNullExpression')) node = node.expression;
  return node;
};

/** The problems of one file's source; `file` is only used in the messages. */
export function checkSource(code, file, tsx = file.endsWith('.tsx')) {
  const problems = [];
  let parsed;
  try {
    parsed = parseSource(code, tsx);
  } catch (error) {
    return [{ file, line: 0, message: `cannot parse: ${error.message}` }];
  }
  const { ast, lineOf } = parsed;
  const allowed = (line) => parsed.marked(line, 'own-keys:');
  const flag = (node, message) => {
    const line = lineOf(node);
    if (!allowed(line)) problems.push({ file, line, message });
  };

  // Module-level literal tables typed Record<string, …>, and every `const x = {}` (any scope).
  const openTables = new Set();
  const emptyObjects = new Set();
  for (const item of ast.body) {
    const decl = item.type === 'ExportDeclaration' ? item.declaration : item;
    if (decl?.type !== 'VariableDeclaration') continue;
    for (const d of decl.declarations) {
      if (
        d.id.type === 'Identifier' &&
        d.init?.type === 'ObjectExpression' &&
        isOpenTable(d.id.typeAnnotation?.typeAnnotation)
      )
        openTables.add(d.id.value);
    }
  }
  // A `{}` typed with closed keys (Partial<Row>, { a?: string }) is written by keys the types check.
  const openOrUntyped = (t) =>
    !t || isOpenTable(t) || (t.type === 'TsTypeLiteral' && t.members.some((m) => m.type === 'TsIndexSignature'));
  walk(ast, (node) => {
    if (node.type !== 'VariableDeclarator' || node.id.type !== 'Identifier') return;
    const init = unwrap(node.init);
    if (
      init?.type === 'ObjectExpression' &&
      init.properties.length === 0 &&
      openOrUntyped(node.id.typeAnnotation?.typeAnnotation)
    )
      emptyObjects.add(node.id.value);
  });

  walk(ast, (node, parent) => {
    if (node.type === 'BinaryExpression' && node.operator === 'in' && !isLiteral(node.left)) {
      flag(node, '`name in obj` is true for inherited members (constructor, toString…): use Object.hasOwn(obj, name)');
      return;
    }
    if (node.type !== 'MemberExpression' || node.property.type !== 'Computed') return;
    const key = node.property.expression;
    if (isLiteral(key)) return;
    if ((key.type === 'TsAsExpression' || key.type === 'TsSatisfiesExpression') && isKeyofType(key.typeAnnotation)) {
      flag(
        node,
        'a name cast to `keyof` indexes a table unchecked (`constructor` is found): Object.hasOwn first, or a Map',
      );
      return;
    }
    const object = unwrap(node.object);
    const isWrite =
      parent?.type === 'AssignmentExpression' && parent.left === node ? true : parent?.type === 'UpdateExpression';
    if (object.type === 'Identifier' && openTables.has(object.value) && !isWrite) {
      flag(
        node,
        `\`${object.value}\` is a Record<string, …> literal read by a name: it finds inherited members; use a Map or ownValue()`,
      );
      return;
    }
    if (object.type === 'TsAsExpression' && isOpenTable(object.typeAnnotation)) {
      flag(
        node,
        'a table cast to Record<string, …> and read by a name finds inherited members: use ownValue() or Object.hasOwn',
      );
      return;
    }
    if (isWrite && object.type === 'Identifier' && emptyObjects.has(object.value)) {
      flag(
        node,
        `\`${object.value}[name] = …\` on a {}: a name \`__proto__\` replaces its prototype; use setOwn(), a Map, or dataRecord()`,
      );
    }
  });
  return problems;
}

function sourceFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter(
      (f) =>
        /\.(ts|tsx)$/.test(f) &&
        !/\.(test|spec)\.tsx?$/.test(f) &&
        !/\.d\.ts$/.test(f) &&
        !/(^|\/)test\//.test(f) &&
        !f.includes('node_modules'),
    )
    .map((f) => join(dir, f));
}

export function checkOwnKeys(base = root, roots = ROOTS) {
  const problems = [];
  for (const dir of roots) {
    for (const file of sourceFiles(join(base, dir))) {
      problems.push(...checkSource(readFileSync(file, 'utf8'), relative(base, file)));
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = checkOwnKeys();
  for (const p of problems) console.error(`${p.file}:${p.line}: ${p.message}`);
  if (problems.length) {
    console.error(`own keys: ${problems.length} place(s) use a name as an object member (see the file's head)`);
    process.exit(1);
  }
  console.info('own keys: no name from outside is used as an object member');
}
