// The conformance kit on the Host in-process, the reference every other path is compared with: the
// snippet of docs/conformance.md ("Run it on your own adapter") run as written, `myDriver` being
// the Host's reference driver.
import { pointImports, importSnippet, snippetOf } from './snippet.js';

const snippet = snippetOf(new URL('../../docs/conformance.md', import.meta.url), '## Run it on your own adapter');
await importSnippet(
  pointImports(snippet, {
    'task-surface/conformance': new URL('../../conformance/index.js', import.meta.url).href,
    './myDriver.js': new URL('./myDriver.js', import.meta.url).href,
  }),
);
