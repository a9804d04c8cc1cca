// The door kit (test/doors/kit.ts) on the main demo's `/mcp` (`npm start`), where the examples'
// rules truly apply to it. `/mcp` is for MCP hosts, which send no Origin, and answers JSON-RPC
// errors, so its words are its own; the scenarios that need a limit a test can lower (its rates,
// its body budget) or one it does not have (requests in all) are skipped with the reason.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoServer } from '../../demo/app.js';
import { DEMO_MCP_MAX_BODY } from '../../demo/mcp.js';
import { ensurePanelBuilt } from '../mcp/helpers.js';
import { runDoorKit, type DoorDriver } from './kit.js';

const rates =
  "startDemoServer sets /mcp's rates (an address 200 a second after 400, a principal 100 after 200) with no option a test could lower; " +
  'they are tried on createMcpHttpHandler in test/mcp/httpRates.node.test.ts';

const mcpDriver: DoorDriver = {
  door: 'demo /mcp',
  async start(t, options) {
    await ensurePanelBuilt(); // else /mcp answers 503 at once, its body unread
    const data = mkdtempSync(join(tmpdir(), 'ts-door-kit-mcp-'));
    const server = await startDemoServer({
      root: data,
      store: 'memory',
      dataDir: data,
      ...(options?.bodyTimeoutMs !== undefined && { mcpBodyTimeoutMs: options.bodyTimeoutMs }),
    });
    t.after(async () => {
      await server.close();
      rmSync(data, { recursive: true, force: true });
    });
    return {
      url: `http://127.0.0.1:${server.port}`,
      cookie() {
        const { cookie } = server.identities.issue();
        return `${cookie.name}=${cookie.value}`;
      },
    };
  },
  paths: { open: '/healthz', read: '/mcp', write: '/mcp' },
  limits: { maxBodyBytes: DEMO_MCP_MAX_BODY },
  words: {
    unknown: 'Unauthorized: who is calling is not known; sign in first',
    // The demo's HTTP server checks the Host of every request, `/mcp`'s too, in plain text.
    badHost: 'bad request: the Host header is malformed or not one this server serves',
    crossSite: 'forbidden: this Origin may not use /mcp',
    // The MCP SDK's answer, once the body is read (the examples refuse before reading it).
    notJson: 'Unsupported Media Type: Content-Type must be application/json',
    tooLarge: `Request body larger than ${DEMO_MCP_MAX_BODY} bytes`,
    tooSlow: (ms) => `Request body not received within ${ms} ms`,
    // Not asked: the scenarios skipped below.
    addressRate: () => '',
    personRate: () => '',
    inAll: () => '',
    bodyShare: () => '',
    bodyAll: () => '',
  },
  /** A JSON-RPC error's message, or the plain text of the demo's HTTP server. */
  wordsOf(answer) {
    if (!answer.headers['content-type']?.includes('json')) return answer.text;
    return (JSON.parse(answer.text) as { error?: { message?: string } }).error?.message ?? null;
  },
  notApplicable: {
    addressRate: rates,
    otherAddress: rates,
    personRate: rates,
    otherPerson: rates,
    inAll: "/mcp has no limit on the requests being answered in all: it bounds a principal's in flight (32) and the sessions (1,024)",
    bodyBudget:
      "/mcp's body budget (64 MiB, a sixteenth of it one principal's, not one address's) is not settable through startDemoServer; " +
      'it is tried on createMcpHttpHandler in test/mcp/httpLimits.node.test.ts',
    trustedProxy: `${rates}; a trusted X-Forwarded-For client's /mcp sessions are tried in test/mcp/addresses.node.test.ts`,
  },
};

runDoorKit(mcpDriver);
