/*
 * `task-surface/conformance`: the rulebook of the two specifications as scenarios, and the driver
 * interface a path implements to run them (driver.ts). A product that writes its own adapter
 * implements `ConformanceDriver` and runs every scenario on it.
 */
export type {
  ActiveSurface,
  CallRead,
  Capability,
  ConformanceDriver,
  Conversation,
  ConversationOptions,
  DismissOutcome,
  ModelCall,
  ModelStep,
  PreviewSeen,
  SeenMessage,
  SeenRequest,
  SendOutcome,
  SubmitOutcome,
  Supports,
  SurfaceStatus,
  CardSeen,
} from './driver.js';
export { ConformanceError, expectEqual, expectThat, type Scenario, type ScenarioContext, type Specification } from './scenario.js';
export { conformanceSuite, notApplicable, runScenario, SCENARIOS, type TestFunction } from './run.js';
export {
  answer,
  cardKinds,
  loadSkill,
  LOCALES,
  panelModel,
  PRODUCT_LOCALE,
  PRODUCT_WORDS,
  propose,
  registerProductLocale,
  show,
  SHIPPED_LOCALES,
} from './fixtures.js';
export * as texts from './texts.js';
export { hostDriver, HOST_SUPPORTS, hostConversation, type HostConnection } from './drivers/host.js';
