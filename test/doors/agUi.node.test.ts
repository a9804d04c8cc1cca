// The door kit (test/doors/kit.ts) on the AG-UI example's door (`npm run demo:ag-ui`, and
// `npm run demo:copilotkit`: the same server with another page).
import { runDoorKit } from './kit.js';
import { agUiDriver, pinBodyDefaults } from './exampleDrivers.js';

runDoorKit(agUiDriver);
pinBodyDefaults(agUiDriver);
