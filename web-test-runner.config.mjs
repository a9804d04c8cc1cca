import { esbuildPlugin } from '@web/dev-server-esbuild';
import { build } from 'esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';

/** Browser tests: `test/**\/*.test.ts` except node and end-to-end tests, in headless Chromium. */
export default {
  files: ['test/**/*.test.ts', '!test/**/*.node.test.ts', '!test/e2e/**'],
  nodeResolve: { browser: true, exportConditions: ['production'] },
  plugins: [
    // partial-json (the Host's preview of a streaming call) ships CommonJS only: a bundler converts
    // it, and so must the test server (@rollup/plugin-commonjs no longer runs inside it).
    {
      name: 'partial-json-as-esm',
      async serve(context) {
        if (!context.path.endsWith('/node_modules/partial-json/dist/index.js')) return undefined;
        const contents = "export { parse, Allow } from 'partial-json';";
        const out = await build({
          stdin: { contents, resolveDir: process.cwd() },
          bundle: true,
          format: 'esm',
          write: false,
          logLevel: 'error',
        });
        return { body: out.outputFiles[0].text, type: 'js' };
      },
    },
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }),
  ],
  concurrency: 2,
  // A test that hangs fails by name at mocha's 10 s, long before the runner gives up on its file (120 s);
  // a wait inside a test is shorter still (test/browser/waits.ts, waitUntil's 1 s).
  testFramework: { config: { timeout: 10000 } },
  testsFinishTimeout: 120000,
  // readableFailures.js first: a failed assertion about an element fails at once (see the file).
  // The doctype keeps the page in standards mode: in quirks mode tables do not inherit colour or font.
  testRunnerHtml: (testFramework) =>
    `<!DOCTYPE html><html><body><script type="module" src="/test/browser/readableFailures.js"></script><script type="module" src="${testFramework}"></script></body></html>`,
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          '--disable-quic',
          // several test pages run at once: keep timers and animation frames of background tabs running
          '--disable-background-timer-throttling',
          '--disable-renderer-backgrounding',
          '--disable-backgrounding-occluded-windows',
        ],
      },
    }),
  ],
};
