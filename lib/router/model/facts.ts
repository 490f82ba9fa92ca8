// What the router state machine needs from the target before it draws commands, read once
// per test from its scenario inputs: the JSON model whose output is the same for the same
// input (image_model, whose collect is compared with its synchronous answer), a model slow
// enough to be cancelled before it ends (slow_model), a credential of another member of the
// same workspace (teammate_token: the keyspace is the workspace's, R:170:fbe5d04d02cd) and a
// valid body (image_body). Without slow_model or teammate_token the commands needing them are
// not drawn and what only they show is said not judged.
import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../../api.ts';
import { notJudged } from '../../check.ts';
import { imageBody, type Need } from '../bodies.ts';
import { modelRef } from '../models.ts';
import type { RouterFacts } from './state.ts';
import { SuiteError } from '../../violations.ts';

/**
 * Scenario input deterministic_models: the model IDs the target says answer the same output for
 * the same input (the seed promises that of no model). Default: image_model alone, which the
 * scenario names as such.
 */
export function deterministicModels(api: ApiClient, need: Need): ReadonlySet<string> {
  const raw = api.target.scenario.deterministic_models;
  if (raw === undefined)
    return new Set([need('image_model', 'a JSON model whose output is the same for the same input') as string]);
  const list =
    typeof raw === 'string'
      ? raw
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean)
      : raw;
  if (!Array.isArray(list) || !list.every((v) => typeof v === 'string'))
    throw new SuiteError(
      'scenario input deterministic_models must be a list of model IDs (or one comma-separated string)',
    );
  return new Set(list);
}

export function routerFacts(api: ApiClient, need: Need, opts: { full: boolean }): RouterFacts {
  const scenario = api.target.scenario;
  const facts: RouterFacts = {
    image: modelRef(need('image_model', 'a JSON model whose output is the same for the same input') as string),
    baseBody: imageBody(need),
    deterministic: deterministicModels(api, need),
    full: opts.full,
    nonce: randomUUID().slice(0, 8),
    said: new Set(),
    sync: new Map(),
  };
  if (typeof scenario.slow_model === 'string') facts.slow = modelRef(scenario.slow_model);
  else
    notJudged(
      'ROUTER.QUEUE.CANCEL',
      'the target gives no slow_model, so the model cancels only requests of image_model, which may end before the cancel reaches them',
    );
  if (typeof scenario.teammate_token === 'string') facts.teammate = api.as({ bearer: scenario.teammate_token });
  else
    notJudged(
      'ROUTER.IDEM.SCOPE',
      'the target gives no teammate_token, so no key is reused by another member of the workspace',
    );
  return facts;
}
