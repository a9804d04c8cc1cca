// The conformance kit on the MCP App path with the real panel, in every language but English: what
// the person does in the panel (double submit, retry, dismiss, a submission after a dismissal,
// reload). Every scenario runs in English in conformance-mcp-view.e2e.ts; the two files split one run
// so that each stays within the per-file budget. One Chromium for the file, one page for every conversation.
import { LOCALES, SCENARIOS } from '../../conformance/index.js';
import { describeMcpViewConformance, PERSON_SCENARIOS } from '../../fixtures/conformance/mcpViewConformance.js';

describeMcpViewConformance('conformance: the MCP App, the real panel in Chromium, in every other language', (_driver, suite) =>
  suite({ scenarios: SCENARIOS.filter((s) => PERSON_SCENARIOS.includes(s.id)), locales: LOCALES.filter((l) => l !== 'en') }),
);
