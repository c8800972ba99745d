// Every module specifier a source file names, with its line: static imports and re-exports,
// `import type`, dynamic `import('x')`, `typeof import('x')` types, `require('x')`,
// `require.resolve('x')`, `vi.mock('x')`-style calls, and `new URL('./x', import.meta.url)`
// (worker scripts and fixtures are addressed that way). The file is parsed with the TypeScript
// compiler, so specifiers inside comments or ordinary strings are not mistaken for imports.
// A dynamic import whose argument is computed at run time cannot be seen here.
import ts from 'typescript';

const kindByExtension = {
  '.ts': ts.ScriptKind.TS,
  '.mts': ts.ScriptKind.TS,
  '.cts': ts.ScriptKind.TS,
  '.tsx': ts.ScriptKind.TSX,
  '.js': ts.ScriptKind.JS,
  '.mjs': ts.ScriptKind.JS,
  '.cjs': ts.ScriptKind.JS,
  '.jsx': ts.ScriptKind.JSX,
};

/** File endings whose contents are scanned. */
export const sourceExtensions = Object.keys(kindByExtension);

const viModuleCalls = new Set(['mock', 'doMock', 'unmock', 'doUnmock', 'importActual', 'importMock']);

/** @param {ts.Node | undefined} node */
function literalText(node) {
  if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) return node.text;
  return undefined;
}

/** @param {ts.Expression} node */
function isImportMetaUrl(node) {
  return (
    ts.isPropertyAccessExpression(node) &&
    node.name.text === 'url' &&
    ts.isMetaProperty(node.expression) &&
    node.expression.keywordToken === ts.SyntaxKind.ImportKeyword
  );
}

/**
 * @param {string} fileName used for the script kind (by extension) and in parse errors
 * @param {string} text
 * @returns {{ specifier: string, line: number, kind: 'import' | 'url' }[]}
 */
export function moduleSpecifiers(fileName, text) {
  const extension = fileName.slice(fileName.lastIndexOf('.'));
  const kind = kindByExtension[extension] ?? ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  /** @type {{ specifier: string, line: number, kind: 'import' | 'url' }[]} */
  const found = [];
  const add = (node, specifier, how = 'import') => {
    if (specifier === undefined) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ specifier, line, kind: how });
  };

  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      add(node, literalText(node.moduleSpecifier));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, literalText(node.moduleReference.expression));
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, literalText(node.argument.literal));
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const first = node.arguments[0];
      if (callee.kind === ts.SyntaxKind.ImportKeyword) add(node, literalText(first));
      else if (ts.isIdentifier(callee) && callee.text === 'require') add(node, literalText(first));
      else if (
        ts.isPropertyAccessExpression(callee) &&
        ts.isIdentifier(callee.expression) &&
        ((callee.expression.text === 'require' && callee.name.text === 'resolve') ||
          (callee.expression.text === 'vi' && viModuleCalls.has(callee.name.text)))
      )
        add(node, literalText(first));
    } else if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'URL' &&
      node.arguments?.length === 2 &&
      isImportMetaUrl(node.arguments[1])
    ) {
      add(node, literalText(node.arguments[0]), 'url');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
