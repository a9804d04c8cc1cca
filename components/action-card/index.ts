export { ActionCard, type ActionCardActedDetail } from './action-card.js';
export {
  registerCardBody,
  registerCardBodyLoader,
  cardBodyFor,
  cardBodyLoading,
  type CardBody,
  type CardBodyContext,
  type Localized,
} from './bodies.js';
export { cardStrings, type CardLang, type CardStrings, type KnownReason } from './strings.js';
export { registerShippedCardBodies } from './kinds/index.js';
