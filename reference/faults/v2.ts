// Faults of the v2 workflow API: each breaks exactly one rule. One file per area under
// reference/faults/v2/, each unit carrying its own install code.
import { ERROR_FAULTS } from './v2/errors.ts';
import { AUTH_FAULTS } from './v2/auth.ts';
import { ASSET_FAULTS } from './v2/assets.ts';
import { JOB_FAULTS } from './v2/jobs.ts';
import { LISTING_FAULTS } from './v2/listing.ts';
import { REFUSAL_FAULTS } from './v2/refusals.ts';
import { SERVERLESS_FAULTS } from './v2/serverless.ts';
import { CONTRACT_FAULTS } from './v2/contract.ts';
import { MODEL_FAULTS } from './v2/model.ts';

export const V2_FAULTS = [
  ...ERROR_FAULTS,
  ...AUTH_FAULTS,
  ...ASSET_FAULTS,
  ...JOB_FAULTS,
  ...LISTING_FAULTS,
  ...REFUSAL_FAULTS,
  ...SERVERLESS_FAULTS,
  ...CONTRACT_FAULTS,
  ...MODEL_FAULTS,
] as const;
