// The paths the conformance table lists, in its column order (a new path's driver joins here).
import type { ConformanceDriver } from '../../conformance/index.js';
import { hostDriver } from '../../conformance/drivers/host.js';
import { hostWebSocketDriver } from '../../conformance/drivers/hostWs.js';
import { aiSdkDriver } from '../../conformance/drivers/aiSdk.js';
import { mcpDriver } from '../../conformance/drivers/mcp.js';
import { agUiDriver } from '../../conformance/drivers/agUi.js';
// Chromium starts only with a conversation: the table reads the driver's `supports` and description.
import { mcpViewDriver } from '../../fixtures/conformance/mcpView.js';
import { docsRoutes } from './docsRoute.js';

export const TABLE_DRIVERS: readonly ConformanceDriver[] = [
  hostDriver,
  hostWebSocketDriver,
  aiSdkDriver(docsRoutes),
  mcpDriver,
  mcpViewDriver(),
  agUiDriver,
];
