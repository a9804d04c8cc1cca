// Browser-safe stand-ins for the Host test helpers (test/host/helpers.ts imports node:test and
// node:assert, which a browser test cannot load): an agent that shows one surface, then says 'ok'.
import type { AgentDriver, AgentTurn, Host } from '../../host/types.js';
import type { JsonValue, MessageId, RpcId, SessionId, TaskSurfaceId } from '../../protocol/index.js';

const sampleModel: JsonValue = {
  version: 1, title: 'Pick a plan',
  sections: [{ id: 'intro', blocks: [{ kind: 'markdown', text: 'Choose one plan and order the steps.' }] }],
  fields: [
    { kind: 'choice', id: 'plan', label: 'Plan', options: [{ id: 'a', label: 'Plan A' }, { id: 'b', label: 'Plan B' }] },
    { kind: 'text', id: 'why', label: 'Why', required: true },
  ],
  submit: { label: 'Send' },
};

/** Runs queued turn scripts in order; a turn without one replies 'ok'. */
export class ScriptedDriver implements AgentDriver {
  private readonly scripts: ((turn: AgentTurn) => Promise<void>)[] = [];

  showSurface(model: JsonValue = sampleModel): this {
    this.scripts.push(async (turn) => {
      turn.step();
      await turn.callTool('show_task_surface', { model });
    });
    return this;
  }

  async runTurn(turn: AgentTurn): Promise<void> {
    const script = this.scripts.shift();
    if (script) return script(turn);
    turn.step();
    turn.reply('ok');
  }
}

let unique = 0;

/** Sends an ordinary user message. */
export function say(host: Host, sessionId: SessionId, text: string) {
  unique++;
  return host.session.send({ sessionId, messageId: `umsg-${unique}` as MessageId, rpcId: `urpc-${unique}` as RpcId, text });
}

/** Opens a session and shows a surface in it (the first turn, started by a user message). */
export async function withOpenSurface(host: Host, driver: ScriptedDriver, model?: JsonValue) {
  const sessionId = host.openSession({ title: 'T' });
  driver.showSurface(model);
  await say(host, sessionId, 'please show a form');
  await host.whenIdle(sessionId);
  const active = host.getView(sessionId).taskSurface.active;
  if (!active) throw new Error('the scripted turn did not open a surface');
  return { sessionId, surfaceId: active.surfaceId as TaskSurfaceId, callId: active.callId };
}
