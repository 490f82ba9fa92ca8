// Seed phrases the project may repeat word for word (lib/seeds/copies.ts): each covers
// the whole run it allows and says why it must stay. Keep this list short; rewording
// is the rule, an entry the exception.
import type { AllowedPhrase } from './copies.ts';

export const ALLOWED_SEED_PHRASES: readonly AllowedPhrase[] = [];
