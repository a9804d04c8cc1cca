// The drivers are server code: nothing the browser bundle's entry reaches imports agents/ or a model SDK.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';

describe('agents stay out of the browser bundle', () => {
  it('components/bundle.ts reaches no file under agents/ and none of openai, @anthropic-ai/sdk, ai', async () => {
    const result = await build({
      entryPoints: ['components/bundle.ts'],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'browser',
      logLevel: 'silent',
      outdir: 'unused',
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(
      inputs.some((f) => f.startsWith('components/')),
      'the entry was walked',
    );
    assert.deepEqual(
      inputs.filter((f) => f.startsWith('agents/') || /node_modules\/(openai|@anthropic-ai|ai|@ai-sdk)\//.test(f)),
      [],
    );
  });
});
