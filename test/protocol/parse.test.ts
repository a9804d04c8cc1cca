import { expect } from '@open-wc/testing';
import {
  formatModelIssues,
  formatSubmission,
  initialValues,
  parseTaskSurfaceModel,
  showTaskSurfaceTool,
  validateSubmission,
} from '../../protocol/index.js';
import { everyKindModel } from '../../fixtures/models.js';

describe('the Task Surface contract in the browser', () => {
  it('parses, normalises and re-parses a model to the same thing', () => {
    const result = parseTaskSurfaceModel(JSON.parse(JSON.stringify(everyKindModel())));
    if (!result.ok) throw new Error(formatModelIssues(result.issues));
    expect(result.model.sections[1]!.layout).to.deep.equal({ kind: 'stack' });
    expect(result.model.fields.map((f) => f.id)).to.deep.equal(['env', 'targets', 'migrate', 'sequence', 'reason', 'ticket']);
    expect(parseTaskSurfaceModel(result.model)).to.deep.equal(result);
  });

  it('rejects a broken model with the path of the broken part and no prototype pollution', () => {
    const text =
      '{"version":1,"title":"T","__proto__":{"polluted":1},"sections":[{"id":"a","blocks":[{"kind":"markdown","text":"x"}]},{"id":"a","blocks":[{"kind":"markdown","text":"y"}]}],"submit":{"label":"Go"}}';
    const result = parseTaskSurfaceModel(JSON.parse(text));
    expect(result.ok).to.equal(false);
    if (result.ok) return;
    expect(result.issues.map((i) => [i.code, i.path])).to.deep.equal([
      ['unknown-key', ['__proto__']],
      ['duplicate-id', ['sections', 1, 'id']],
    ]);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it('validates and formats a submission, and builds the tool definition', () => {
    const result = parseTaskSurfaceModel(everyKindModel());
    if (!result.ok) throw new Error('invalid fixture');
    const values = { ...initialValues(result.model), reason: 'Needed' };
    const submission = validateSubmission(result.model, { values });
    if (!submission.ok) throw new Error(JSON.stringify(submission.issues));
    expect(formatSubmission(result.model, submission.values, undefined, { locale: 'zh' })).to.contain('Run migrations：是');
    expect(showTaskSurfaceTool.name).to.equal('show_task_surface');
  });
});
