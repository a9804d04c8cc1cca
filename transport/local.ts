import type { HostApi } from '../protocol/index.js';
import { TransportError, type HostTransport } from './types.js';

/**
 * A transport for a Host in the same page or process. Calls go straight to the Host (after a
 * microtask, as they would over a wire); `dispose()` releases every watch it made and makes later
 * calls reject with `TransportError('disposed')`. It never disposes the Host itself.
 */
export function createLocalTransport(host: HostApi): HostTransport {
  const watches = new Set<() => void>();
  let disposed = false;
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    if (disposed) throw new TransportError('disposed', 'the transport was disposed');
    await Promise.resolve();
    if (disposed) throw new TransportError('disposed', 'the transport was disposed');
    return run();
  };
  return {
    watchSession(sessionId, listener) {
      if (disposed) throw new TransportError('disposed', 'the transport was disposed');
      const unwatch = host.watchSession(sessionId, (view) => {
        if (!disposed) listener(view);
      });
      let live = true;
      const release = () => {
        if (!live) return;
        live = false;
        watches.delete(release);
        unwatch();
      };
      watches.add(release);
      return release;
    },
    readLog: (sessionId, options) => call(() => host.readLog(sessionId, options)),
    taskSurface: {
      getActive: (input) => call(() => host.taskSurface.getActive(input)),
      getOutcome: (input) => call(() => host.taskSurface.getOutcome(input)),
      submit: (input) => call(() => host.taskSurface.submit(input)),
      dismiss: (input) => call(() => host.taskSurface.dismiss(input)),
    },
    session: {
      send: (input) => call(() => host.session.send(input)),
      updateQueue: (input) => call(() => host.session.updateQueue(input)),
    },
    actionCards: {
      act: (input) => call(() => host.actionCards.act(input)),
    },
    dispose() {
      disposed = true;
      for (const release of [...watches]) release();
    },
  };
}
