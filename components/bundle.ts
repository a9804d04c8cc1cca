// The drop-in bundle's entry: defines every custom element and exports the browser transports.
export * from './index.js';
export { createLocalTransport } from '../transport/local.js';
export { createWebSocketTransport } from '../transport/ws/client.js';
export { TransportError } from '../transport/types.js';
