import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { importsOf } from './imports.js';

/**
 * The package's layering. Each layer may import itself and the layers listed (relative imports);
 * protocol ← machines ← host ← agents, and protocol ← transport ← components (which also runs the
 * Dock's machine); mcp and ai-sdk sit beside agents, over host and components. Nothing in the
 * package imports demo, bench, test or fixtures.
 */
export const PACKAGE_LAYERS: Record<string, readonly string[]> = {
  protocol: [],
  machines: ['protocol'],
  host: ['protocol', 'machines'],
  agents: ['protocol', 'machines', 'host'],
  transport: ['protocol'],
  components: ['protocol', 'machines', 'transport'],
  // The MCP server keeps its panels in a Host over the project's store (host), and its app document
  // renders with the components' task-surface-view.
  mcp: ['protocol', 'machines', 'host', 'transport', 'components'],
  // Beside agents: the host's pure fold and decisions over an app's messages; the React layer
  // mounts the elements.
  'ai-sdk': ['protocol', 'machines', 'host', 'transport', 'components'],
  // Beside ai-sdk: each AG-UI run goes through the Host's own decisions (host's fold); the page side
  // is a HostTransport (transport). It mounts no element itself.
  'ag-ui': ['protocol', 'machines', 'host', 'transport'],
  // The rulebook runs the same scenarios through every path, so its drivers stand on all of them.
  conformance: ['protocol', 'machines', 'host', 'agents', 'transport', 'components', 'mcp', 'ai-sdk', 'ag-ui'],
};

/** Folders outside the package and what they may import besides the package itself. */
export const OTHER_FOLDERS: Record<string, readonly string[]> = {
  fixtures: [],
  // The door benches (bench/suites/aiSdkAbuse.ts) measure the AI SDK example's own server, as it ships.
  bench: ['fixtures', 'demo'],
  demo: [],
  // The docs site (site/): the package, and the demo agent's panels and the test fixtures as its examples.
  site: ['demo', 'fixtures'],
};

/**
 * Folders inside one layer that may not import each other, whatever the layers allow: the WebSocket
 * server knows nothing of the cluster, and the cluster plugs into it only through the interface the
 * server defines.
 */
export const FORBIDDEN_IMPORTS: readonly { from: string; to: string; except?: readonly string[]; why: string }[] = [
  { from: 'transport/ws/', to: 'transport/cluster/', why: 'transport/ws/ knows nothing of transport/cluster/' },
  {
    from: 'transport/cluster/',
    to: 'transport/ws/',
    except: ['transport/ws/router.ts', 'transport/ws/peerWire.ts'],
    why: 'transport/cluster/ may import only the interface the server defines (transport/ws/router.ts, peerWire.ts)',
  },
];

/** The browser-safe entry points (the README's "browser-safe" column). */
export const BROWSER_ENTRIES = [
  'protocol/index.ts',
  'machines/index.ts',
  'host/index.ts',
  'transport/index.ts',
  'components/index.ts',
  'components/bundle.ts',
  'ai-sdk/index.ts',
  'ai-sdk/react/index.ts',
  'ag-ui/index.ts',
  'conformance/index.ts',
];
const NODE_MODULES = /^(node:|ws$|better-sqlite3$|pg$)/;

const SOURCE = /\.(ts|mts|cts|tsx|js|mjs|cjs)$/;

/** Every source file under `folder` (relative to `root`, with forward slashes). */
export function sourceFiles(root: string, folder: string): string[] {
  return (readdirSync(join(root, folder), { recursive: true }) as string[])
    .filter((f) => SOURCE.test(f))
    .map((f) => posix.join(folder, f.split('\\').join('/')))
    .sort();
}

/** What is wrong with `file`'s imports (empty when it keeps the layering). `file` is relative to the repository root. */
export function layeringViolations(file: string, code: string): string[] {
  const folder = file.split('/')[0]!;
  const inPackage = folder in PACKAGE_LAYERS;
  const allowed = inPackage
    ? [folder, ...PACKAGE_LAYERS[folder]!]
    : [folder, ...Object.keys(PACKAGE_LAYERS), ...(OTHER_FOLDERS[folder] ?? [])];
  const { imports, uncheckable, errors } = importsOf(file, code);
  const problems = errors.map((e) => `${file}: does not parse: ${e}`);
  // bench/index.ts loads its own suites by computed URL; they are checked as files of bench/.
  if (inPackage)
    for (const { line } of uncheckable)
      problems.push(`${file}:${line}: a dynamic import whose specifier is not a string literal cannot be checked`);
  for (const { specifier, kind, line } of imports) {
    const where = `${file}:${line}: ${kind} import of '${specifier}'`;
    if (specifier.startsWith('.')) {
      const target = posix.normalize(posix.join(dirname(file), specifier));
      const targetFolder = target.startsWith('..')
        ? '(outside the repository)'
        : target.includes('/')
          ? target.split('/')[0]!
          : '(the repository root)';
      if (!allowed.includes(targetFolder))
        problems.push(`${where}: ${folder}/ may not import ${targetFolder}${targetFolder.startsWith('(') ? '' : '/'}`);
      const targetFile = target.replace(/\.js$/, '.ts');
      for (const rule of FORBIDDEN_IMPORTS)
        if (file.startsWith(rule.from) && targetFile.startsWith(rule.to) && !rule.except?.includes(targetFile))
          problems.push(`${where}: ${rule.why}`);
    } else if (specifier.startsWith('/')) {
      if (inPackage) problems.push(`${where}: absolute paths are not allowed in the package`);
    } else if (specifier === 'task-surface' || specifier.startsWith('task-surface/')) {
      if (inPackage) problems.push(`${where}: the package imports itself by relative path, never through its exports`);
    }
  }
  return problems;
}

/**
 * Node modules (builtins, ws, better-sqlite3, pg) that a browser-safe entry loads: every file reached
 * from `BROWSER_ENTRIES` through runtime imports (type-only imports are erased) must import none.
 * `files` maps each package file (relative path) to its source.
 */
export function browserSafetyViolations(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  const reachedFrom = new Map<string, string>();
  const queue = BROWSER_ENTRIES.filter((entry) => files.has(entry));
  for (const entry of queue) reachedFrom.set(entry, entry);
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const { specifier, kind, line } of importsOf(file, files.get(file)!).imports) {
      if (kind === 'type') continue;
      if (NODE_MODULES.test(specifier)) {
        problems.push(`${file}:${line}: imports '${specifier}', but the browser-safe ${reachedFrom.get(file)} loads this file`);
      } else if (specifier.startsWith('.')) {
        const target = posix.normalize(posix.join(dirname(file), specifier)).replace(/\.js$/, '.ts');
        if (files.has(target) && !reachedFrom.has(target)) {
          reachedFrom.set(target, reachedFrom.get(file)!);
          queue.push(target);
        }
      }
    }
  }
  return problems;
}

/** Layering violations of every source file of the package and of fixtures/, bench/ and demo/. */
export function repositoryViolations(root: string): { files: Record<string, number>; problems: string[] } {
  const files: Record<string, number> = {};
  const problems: string[] = [];
  const packageSources = new Map<string, string>();
  for (const folder of [...Object.keys(PACKAGE_LAYERS), ...Object.keys(OTHER_FOLDERS)]) {
    const list = sourceFiles(root, folder);
    files[folder] = list.length;
    for (const file of list) {
      const code = readFileSync(join(root, file), 'utf8');
      if (folder in PACKAGE_LAYERS) packageSources.set(file, code);
      problems.push(...layeringViolations(file, code));
    }
  }
  problems.push(...browserSafetyViolations(packageSources));
  return { files, problems };
}
