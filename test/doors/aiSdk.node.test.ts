// The door kit (test/doors/kit.ts) on the AI SDK example's door (`npm run demo:ai-sdk`).
import { runDoorKit } from './kit.js';
import { aiSdkDriver, pinBodyDefaults } from './exampleDrivers.js';

runDoorKit(aiSdkDriver);
pinBodyDefaults(aiSdkDriver);
