// Override points of the v1 operations and their WebSocket stream (reference/faults/seams.ts):
// each default is what seed W asks; only a fault replaces one.
import { DEFAULT_PARTNER_KEY_FIELD } from '../engine/catalog.ts';
import { accountTraits, type AccountTraits } from '../v2/account-traits.ts';
import type { V2Engine } from '../v2/engine-adapter.ts';
import { accountForKey } from './auth.ts';
import type { PromptError } from './errors.ts';
import type { V1Job } from './jobs.ts';

export interface V1Policy {
  /** The account a WebSocket `token` names (undefined: refused 401). */
  socketAccount(token: string | null): string | undefined;
  /** Whether a connection receives a prompt's messages: every connection of its user (clientId is ignored). */
  streamsTo(client: { account: string; clientId: string | undefined }, job: V1Job): boolean;
  /** original_ref of a mask upload: a JSON-encoded object. */
  parseOriginalRef(raw: string): unknown;
  /** The storage key of an upload (image or mask): the flat namespace keeps the name alone. */
  storageKey(name: string, subfolder: string, upload: 'image' | 'mask'): string;
  /** The extra_data field a partner node reads the caller's key from. */
  partnerKeyField: string;
  /** The traits a prompt is judged by (subscription and credits). */
  promptTraits(account: string): AccountTraits;
  /** A prompt past the tier's parallel limit queues (v1 rule 3), so nothing refuses it. */
  busyRefusal(engine: V2Engine, account: string): { status: number; error: PromptError } | undefined;
  /** /api/view answers with a redirect to a signed URL rather than the bytes. */
  viewRedirects: boolean;
}

export function correctV1Policy(): V1Policy {
  return {
    socketAccount: (token) => accountForKey(token),
    streamsTo: (client, job) => client.account === job.account,
    parseOriginalRef: (raw) => JSON.parse(raw) as unknown,
    storageKey: (name) => name,
    partnerKeyField: DEFAULT_PARTNER_KEY_FIELD,
    promptTraits: (account) => accountTraits(account),
    busyRefusal: () => undefined,
    viewRedirects: true,
  };
}
