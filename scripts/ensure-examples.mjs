// Installs the CopilotKit example's own packages (examples/copilotkit: test/e2e/copilotkit.e2e.ts
// bundles its page from them) when one is missing or not the version its package.json pins, so
// `npm ci` then `npm test` is enough on a fresh clone. `--ignore-scripts`: no install script (a
// telemetry postinstall among them) runs.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const example = 'examples/copilotkit';
const read = (path) => JSON.parse(readFileSync(path, 'utf8'));
const pinned = Object.entries(read(`${example}/package.json`).dependencies);
const installed = (name) => {
  const path = `${example}/node_modules/${name}/package.json`;
  return existsSync(path) ? read(path).version : null;
};
const missing = pinned.filter(([name, version]) => installed(name) !== version);
if (missing.length > 0) {
  console.log(`Installing ${example}'s packages (npm ci --ignore-scripts): ${missing.map(([name]) => name).join(', ')}…`);
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', example], { stdio: 'inherit' });
} else console.log(`${example}'s packages are installed.`);
