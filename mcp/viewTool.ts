import type { CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod/mini';
import {
  formatIssuePath,
  issueText,
  JsonValueSchema,
  LocaleTagSchema,
  OWN_WORDS,
  SessionIdSchema,
  TaskSurfaceDismissalIdSchema,
  TaskSurfaceSubmissionIdSchema,
} from '../protocol/index.js';
import { previewTaskSurfaceModel } from '../protocol/preview.js';
import { jsonUtf8Length } from '../protocol/utf8.js';
import { saveDraft, withDraft } from './drafts.js';
import type { PanelLedger, PanelState } from './ledger.js';

/*
 * The app-only tool (`_meta.ui.visibility: ["app"]`) through which the view reads and writes its
 * panel's state on the server: the view's own storage is at most a cache (a bare sandboxed iframe
 * has none), so whether a call was answered lives here, keyed by the result's `viewUUID`.
 */

const viewId = SessionIdSchema;
const ViewCallSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('read'), viewId }),
  z.strictObject({
    action: z.literal('submit'),
    viewId,
    submissionId: TaskSurfaceSubmissionIdSchema,
    values: z.record(z.string(), JsonValueSchema),
    locale: z.optional(LocaleTagSchema),
    note: z.optional(z.string()),
  }),
  z.strictObject({ action: z.enum(['sending', 'delivered', 'rejected']), viewId, submissionId: TaskSurfaceSubmissionIdSchema }),
  z.strictObject({ action: z.literal('draft'), viewId, values: z.record(z.string(), JsonValueSchema) }),
  z.strictObject({ action: z.literal('dismiss'), viewId, dismissalId: TaskSurfaceDismissalIdSchema }),
  z.strictObject({ action: z.literal('preview'), arguments: z.record(z.string(), JsonValueSchema) }),
]);
export type ViewCall = z.infer<typeof ViewCallSchema>;

const id = { type: 'string', minLength: 1, maxLength: 128 };
/** The view tool's input as JSON Schema (what tools/list shows). */
export const VIEW_TOOL_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    action: { enum: ['read', 'submit', 'sending', 'delivered', 'rejected', 'draft', 'dismiss', 'preview'] },
    viewId: id,
    submissionId: id,
    dismissalId: id,
    values: { type: 'object' },
    note: { type: 'string', description: "the person's note beside their answer" },
    locale: { type: 'string', maxLength: 35, description: 'BCP 47 tag of the language the answer is written in' },
    arguments: { type: 'object', description: 'preview: the show_task_surface arguments streamed so far (tool-input-partial)' },
  },
  required: ['action'],
  additionalProperties: false,
};

const answer = (state: PanelState | { status: 'invalid'; reason: string }): CallToolResult => ({
  isError: state.status === 'invalid',
  content: [{ type: 'text', text: state.status === 'invalid' ? `refused: ${state.reason}` : `panel ${state.status}` }],
  structuredContent: state as unknown as Record<string, unknown>,
});

/**
 * `preview`: the panel a call still being written shows (`ui/notifications/tool-input-partial`
 * reaches the view alone; the view asks here, so the app document carries no model parser). The
 * host's healed arguments so far go through protocol/preview.ts under the server's limits, as on the
 * Host; nothing is stored (no ledger row, no draft). `model: null`: nothing is whole enough yet, or
 * the settled part does not parse (the view keeps what it shows).
 */
function preview(ledger: PanelLedger, args: Record<string, unknown>): CallToolResult {
  // Arguments of a model within its limit are well within twice its bytes (a healed prefix is shorter still).
  const max = 2 * ledger.limits.modelBytes;
  const bytes = jsonUtf8Length(args);
  if (bytes > max)
    return {
      isError: true,
      content: [{ type: 'text', text: `arguments.arguments: ${bytes} bytes, more than the ${max} a preview reads` }],
    };
  const model = previewTaskSurfaceModel(args, ledger.limits);
  return { content: [{ type: 'text', text: model ? 'panel preview' : 'no preview yet' }], structuredContent: { status: 'preview', model } };
}

/** Runs one view call: every input is checked here, and a bad one names what is wrong. */
export async function handleViewCall(ledger: PanelLedger, args: unknown): Promise<CallToolResult> {
  const parsed = ViewCallSchema.safeParse(args, OWN_WORDS);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${formatIssuePath(i.path as (string | number)[], 'arguments')}: ${issueText(i)}`);
    return { isError: true, content: [{ type: 'text', text: `${issues.join('\n')}` }] };
  }
  const call = parsed.data;
  switch (call.action) {
    case 'preview':
      return preview(ledger, call.arguments);
    case 'read':
      return answer(withDraft(ledger, call.viewId, await ledger.state(call.viewId)));
    case 'draft':
      return answer(saveDraft(ledger, call.viewId, call.values, await ledger.state(call.viewId)));
    case 'submit':
      return answer(
        await ledger.submit(call.viewId, {
          submissionId: call.submissionId,
          values: call.values,
          ...(call.locale ? { locale: call.locale } : {}),
          ...(call.note ? { note: call.note } : {}),
        }),
      );
    case 'sending':
    case 'delivered':
    case 'rejected':
      return answer(await ledger.mark(call.viewId, call.submissionId, call.action));
    case 'dismiss':
      return answer(await ledger.dismiss(call.viewId, call.dismissalId));
  }
}
