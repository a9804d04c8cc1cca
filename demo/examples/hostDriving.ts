// README example: driving the host's machines from host code, with no browser and no model.
import { createActor } from 'xstate';
import { createHost } from '../../host/createHost.js';
import { createMemoryStore } from '../../host/store/memory.js';
import { surfaceMachine } from '../../machines/surfaceMachine.js';
import {
  mintMessageId,
  mintRpcId,
  mintTaskSurfaceSubmissionId,
  type CallId,
  type MessageId,
  type TaskSurfaceId,
} from '../../protocol/index.js';

export async function hostDrivingExample(): Promise<string[]> {
  const seen: string[] = [];
  const host = createHost({
    store: createMemoryStore(),
    autoAdmit: false, // host code claims and commits queued rows itself
    driver: {
      async runTurn(turn) {
        if (turn.input.at(-1)?.source.taskSurface) return turn.reply('Thanks!');
        await turn.callTool('show_task_surface', {
          model: {
            version: 1,
            title: 'Pick a plan',
            sections: [],
            fields: [
              {
                kind: 'choice',
                id: 'plan',
                label: 'Plan',
                options: [
                  { id: 'a', label: 'A' },
                  { id: 'b', label: 'B' },
                ],
              },
            ],
            submit: { label: 'Choose' },
          },
        });
      },
    },
  });
  const sessionId = host.openSession({ title: 'Example' });

  await host.session.send({ sessionId, messageId: mintMessageId(), rpcId: mintRpcId(), text: 'help me pick' });
  host.inbox.claimNext(sessionId)!.commit(); // the message becomes durable; the turn shows a surface
  await host.whenIdle(sessionId);

  const { surfaceId } = host.getView(sessionId).taskSurface.active!;
  await host.taskSurface.submit({ sessionId, surfaceId, submissionId: mintTaskSurfaceSubmissionId(), values: { plan: 'b' } });
  const queued = await host.taskSurface.getActive({ sessionId, surfaceId });
  seen.push(queued.active && queued.pending ? queued.pending.phase : 'none'); // 'queued'
  const claim = host.inbox.claimNext(sessionId)!; // the pending submission turns `claiming`
  const active = await host.taskSurface.getActive({ sessionId, surfaceId });
  seen.push(active.active && active.pending ? active.pending.phase : 'none'); // 'claiming'
  claim.commit(); // the matching user message is durable: the surface closes
  await host.whenIdle(sessionId);
  seen.push(host.getView(sessionId).taskSurface.active === null ? 'closed' : 'open');
  await host.dispose();

  // The surface machine on its own: the same lifecycle as pure transitions.
  const actor = createActor(surfaceMachine, { input: { callId: 'c1' as CallId, surfaceId: 's1' as TaskSurfaceId } }).start();
  actor.send({ type: 'submission.accepted', submissionId: mintTaskSurfaceSubmissionId(), messageId: 'm1' as MessageId });
  actor.send({ type: 'queue.claimed' });
  actor.send({ type: 'submission.discarded', reason: 'rejected' }); // admission failed: open again
  seen.push(String(actor.getSnapshot().value));
  return seen;
}
