import { createContext } from '@lit/context';
import type { HostTransport } from '../../transport/types.js';

/**
 * Hands a HostTransport to every Task Surface element below a provider
 * (`new ContextProvider(el, { context: transportContext, initialValue: transport })`).
 * An element's own `transport` property wins over the context.
 */
export const transportContext = createContext<HostTransport | undefined>(Symbol.for('task-surface.transport'));
