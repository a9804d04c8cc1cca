import { registerCardBodyLoader } from '../bodies.js';

/**
 * Registers the bodies of the two shipped kinds; returns one disposer for both. Each body loads
 * when a card of its kind first renders (its own chunk in the drop-in bundle).
 */
export function registerShippedCardBodies(): () => void {
  const disposers = [
    registerCardBodyLoader('create_page', async () => (await import('./createPage.js')).createPageBody),
    registerCardBodyLoader('schedule_follow_up', async () => (await import('./scheduleFollowUp.js')).scheduleFollowUpBody),
  ];
  return () => disposers.forEach((dispose) => dispose());
}
