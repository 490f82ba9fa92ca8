// Faults of the model router (seed R): each breaks exactly one rule. One file per area
// under reference/faults/router/, each unit carrying its own install code.
import { CONTRACT_FAULTS } from './router/contract.ts';
import { CATALOG_FAULTS } from './router/catalog.ts';
import { RUN_FAULTS } from './router/runs.ts';
import { FALLBACK_FAULTS } from './router/fallback.ts';
import { IDEMPOTENCY_FAULTS } from './router/idempotency.ts';
import { QUEUE_FAULTS } from './router/queue.ts';
import { ESTIMATE_FAULTS } from './router/estimates.ts';
import { ACCESS_FAULTS } from './router/access.ts';
import { ROUTER_MODEL_FAULTS } from './router/model.ts';

export const ROUTER_FAULTS = [
  ...CONTRACT_FAULTS,
  ...CATALOG_FAULTS,
  ...RUN_FAULTS,
  ...FALLBACK_FAULTS,
  ...IDEMPOTENCY_FAULTS,
  ...QUEUE_FAULTS,
  ...ESTIMATE_FAULTS,
  ...ACCESS_FAULTS,
  ...ROUTER_MODEL_FAULTS,
] as const;
