import { parseSync, Visitor, type Expression } from 'oxc-parser';

/** One module a source file asks for, and how (`import type` and `import('x').T` included). */
export interface ImportRef {
  specifier: string;
  kind: 'static' | 'dynamic' | 'type';
  line: number;
}

/** A dynamic import whose specifier is not a string literal: it cannot be checked, so it is refused. */
export interface UncheckableImport {
  line: number;
}

/**
 * Every module `code` imports or re-exports: static imports and re-exports (type-only too), dynamic
 * `import()` and TypeScript `import('x')` types. Parsed by oxc, so comments and strings never count.
 */
export function importsOf(filename: string, code: string): { imports: ImportRef[]; uncheckable: UncheckableImport[]; errors: string[] } {
  const parsed = parseSync(filename, code);
  const lineAt = (offset: number) => code.slice(0, offset).split('\n').length;
  const imports: ImportRef[] = [];
  const uncheckable: UncheckableImport[] = [];
  const add = (specifier: string, kind: ImportRef['kind'], at: number) => imports.push({ specifier, kind, line: lineAt(at) });
  const literal = (source: Expression): string | null => {
    if (source.type === 'Literal' && typeof source.value === 'string') return source.value;
    if (source.type === 'TemplateLiteral' && source.expressions.length === 0) return source.quasis[0]?.value.cooked ?? null;
    return null;
  };
  new Visitor({
    ImportDeclaration: (node) => add(node.source.value, node.importKind === 'type' ? 'type' : 'static', node.start),
    ExportNamedDeclaration: (node) => {
      if (node.source) add(node.source.value, node.exportKind === 'type' ? 'type' : 'static', node.start);
    },
    ExportAllDeclaration: (node) => add(node.source.value, node.exportKind === 'type' ? 'type' : 'static', node.start),
    ImportExpression: (node) => {
      const specifier = literal(node.source);
      if (specifier === null) uncheckable.push({ line: lineAt(node.start) });
      else add(specifier, 'dynamic', node.start);
    },
    TSImportType: (node) => add(node.source.value, 'type', node.start),
  }).visit(parsed.program);
  return { imports, uncheckable, errors: parsed.errors.map((e) => e.message) };
}
