export {};
export * from './surfaceMachine.js';
export * from './turnMachine.js';
export * from './cardMachine.js';
export * from './dockMachine.js';
