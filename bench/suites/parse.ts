// The model parser on the largest model the default limits allow: JSON.parse followed by
// parseTaskSurfaceModel, against JSON.parse alone of the same text (the floor), warm medians.
import { parseTaskSurfaceModel } from '../../protocol/index.js';
import { maximalModel } from '../../fixtures/models.js';
import { compare } from '../stats.js';

export default {
  title: 'Model parser (maximal model: 64 blocks incl. a 200-row table, 32 fields, just under 64 KiB)',
  async run() {
    const text = JSON.stringify(maximalModel());
    const bytes = new TextEncoder().encode(text).length;
    const check = parseTaskSurfaceModel(JSON.parse(text));
    if (!check.ok) throw new Error(`the benchmark model is invalid: ${JSON.stringify(check.issues)}`);
    const blocks = check.model.sections.flatMap((s) => s.blocks);
    const rows = Math.max(...blocks.map((b) => (b.kind === 'table' ? b.rows.length : 0)));
    const normalized = new TextEncoder().encode(JSON.stringify(check.model)).length;
    console.log(
      `model: ${blocks.length} blocks (largest table ${rows} rows), ${check.model.fields.length} fields, ${normalized} bytes normalised (limit 65536)`,
    );
    let sink = 0;
    const { subject, baseline, ratio } = compare(
      () => {
        sink += parseTaskSurfaceModel(JSON.parse(text)).ok ? 1 : 0;
      },
      () => {
        sink += JSON.parse(text) ? 1 : 0;
      },
      400,
      100,
    );
    console.log(`input ${bytes} bytes; JSON.parse ${baseline.toFixed(3)} ms; JSON.parse + parseTaskSurfaceModel ${subject.toFixed(3)} ms`);
    console.log(`ratio (JSON.parse + parse) / JSON.parse: ${ratio.toFixed(2)} (aim ≤ 2.0)${sink < 0 ? '' : ''}`);
    return { parse: `${ratio.toFixed(2)}× JSON.parse alone (maximal model; aim ≤ 2.0)` };
  },
};
