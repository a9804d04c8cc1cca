// `npm run demo:ag-ui`: the AG-UI example. The demo's scripted agent behind the adapter, no API key.
// PORT (default 8789); TASK_SURFACE_AG_UI_DATA (default .data/ag-ui) holds the SQLite log.
// `npm run demo:copilotkit` (`--copilotkit`): the same server with the CopilotKit page of
// examples/copilotkit/ (install it first: `npm ci --ignore-scripts --prefix examples/copilotkit`);
// PORT default 8790, data in .data/copilotkit.
// TASK_SURFACE_TRUSTED_PROXIES=10.0.0.0/8,…: HTTP proxies whose X-Forwarded-For names the client.
import { trustedProxiesFromEnv } from '../exampleDoor.js';
import { startAgUiDemo } from './server.js';

const copilotKit = process.argv.includes('--copilotkit');

const env = (name: string) => process.env[name]?.trim() || undefined;
const port = Number(env('PORT') ?? (copilotKit ? 8790 : 8789));
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, not "${env('PORT')}"`);
  process.exit(1);
}
const dataDir = env('TASK_SURFACE_AG_UI_DATA') ?? (copilotKit ? '.data/copilotkit' : '.data/ag-ui');
const trustedProxies = trustedProxiesFromEnv(env('TASK_SURFACE_TRUSTED_PROXIES')); // a bad entry stops the start, named
const demo = await startAgUiDemo({ dataDir, port, page: copilotKit ? 'copilotkit' : 'ag-ui', trustedProxies });
console.log(`${copilotKit ? 'CopilotKit' : 'AG-UI'} example with the scripted agent: ${demo.url}/ (threads in ${dataDir})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void demo.close().then(() => process.exit(0)));
