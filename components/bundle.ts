// The drop-in bundle's entry: defines every custom element and exports the browser transports.
// markdown-it, the diff library and the shipped card bodies are loaded as chunks when first needed.
export * from './elements.js';
export { createLocalTransport } from '../transport/local.js';
export { createWebSocketTransport } from '../transport/ws/client.js';
export { TransportError } from '../transport/types.js';
