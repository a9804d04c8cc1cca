export * from './types.js';
export * from './ws/client.js';
export * from './local.js';
