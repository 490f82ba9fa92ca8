// POST /api/prompt: a prompt into the engine the v2 jobs use, answered as the engine does
// (a refusal in ComfyUI's shape, possibly with 200), numbered in submission order.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ApiWorkflow, Refusal } from '../../engine/types.ts';
import { accountForKey, v1Account } from '../auth.ts';
import { withCachedWorkInstant } from '../cache.ts';
import { hiddenClassNodes, inwardPrompt, outwardClass } from '../class-names.ts';
import { promptError, type PromptError } from '../errors.ts';
import { isPlainObject } from '../../../lib/values.ts';
import type { V1RouteKit } from './kit.ts';

/** ComfyUI's native refusal: a top-level error plus node_errors keyed by node id. */
function refusalBody(
  refusal: Refusal,
  classOut: (cls: string) => string = (c) => c,
): { error: PromptError; node_errors: Record<string, unknown> } {
  const nodeErrors: Record<string, unknown> = {};
  for (const [id, entry] of Object.entries(refusal.details?.node_errors ?? {})) {
    nodeErrors[id] = {
      errors: entry.errors.map((e) => ({ type: e.type, message: e.message, details: e.details ?? '', extra_info: {} })),
      dependent_outputs: [],
      class_type: classOut(entry.class_type),
    };
  }
  const type = refusal.details?.node_errors
    ? 'prompt_outputs_failed_validation'
    : refusal.code === 'workflow_format_ui'
      ? 'invalid_prompt'
      : refusal.code;
  return { error: promptError(type, refusal.message), node_errors: nodeErrors };
}

export function registerPromptRoute(app: FastifyInstance, kit: V1RouteKit): void {
  const { ctx, jobs, policy, auth } = kit;
  const { engine } = ctx;
  let number = 0;

  app.post('/api/prompt', { onRequest: auth }, async (request, reply) => {
    const account = v1Account(request);
    const body = request.body;
    // A refused prompt may be answered 200 with `error` (seed W § v1, rule 5), never without it.
    const refuse = (
      status: number,
      payload: { error: PromptError; node_errors: Record<string, unknown> },
    ): FastifyReply => reply.code(status).send(payload);
    if (!isPlainObject(body) || !isPlainObject(body.prompt)) {
      return refuse(400, {
        error: promptError(
          'invalid_prompt',
          'the body must be a JSON object whose "prompt" is an object keyed by node id',
        ),
        node_errors: {},
      });
    }
    const extraData = body.extra_data;
    if (extraData !== undefined && !isPlainObject(extraData)) {
      return refuse(400, { error: promptError('invalid_prompt', 'extra_data must be an object'), node_errors: {} });
    }
    // A control: the subscription is enforced when the job would run, not at submit (the seed
    // says running needs one, W:127:032fbcb7b0a5, not where): accepted, then the job fails.
    const failsLater = policy.promptTraits(account).noCredits && ctx.isControl('v1-subscription-fails-later');
    if (policy.promptTraits(account).noCredits && !failsLater) {
      return refuse(402, {
        error: promptError('insufficient_credits', 'the account has no credits left'),
        node_errors: {},
      });
    }
    // Under the v1-renamed-classes control the public names are unknown classes here, and the engine's own names run.
    const renamed = kit.renamed();
    const hidden = renamed ? hiddenClassNodes(body.prompt as ApiWorkflow) : [];
    if (hidden.length > 0) {
      const nodeErrors = Object.fromEntries(
        hidden.map(([id, cls]) => [
          id,
          {
            errors: [
              {
                type: 'unknown_node_class',
                message: `Node class ${cls} does not exist on this server.`,
                details: '',
                extra_info: {},
              },
            ],
            dependent_outputs: [],
            class_type: cls,
          },
        ]),
      );
      return refuse(400, {
        error: promptError(
          'prompt_outputs_failed_validation',
          `Prompt outputs failed validation: node class ${hidden.map(([, c]) => c).join(', ')} does not exist on this server.`,
        ),
        node_errors: nodeErrors,
      });
    }
    const submitted = body.prompt as ApiWorkflow;
    const prompt = renamed ? inwardPrompt(submitted) : submitted;
    const refusal = engine.validate(prompt, account);
    if (refusal) return refuse(400, refusalBody(refusal, renamed ? outwardClass : undefined));

    const partnerNodes = Object.entries(prompt).filter(
      ([, node]) => engine.catalog.get(node.class_type)?.apiNode === true,
    );
    if (partnerNodes.length > 0) {
      const field = policy.partnerKeyField;
      const key = extraData?.[field];
      if (typeof key !== 'string' || accountForKey(key) !== account) {
        const why =
          typeof key === 'string'
            ? `extra_data.${field} is not an API key of this account`
            : `extra_data.${field} is missing`;
        return refuse(200, {
          error: promptError(
            'missing_partner_key',
            `partner node(s) ${partnerNodes.map(([id]) => id).join(', ')} need the caller's API key: ${why}`,
          ),
          node_errors: {},
        });
      }
    }
    const busy = policy.busyRefusal(engine, account);
    if (busy) return refuse(busy.status, { error: busy.error, node_errors: {} });

    const id = randomUUID();
    const clientId = typeof extraData?.client_id === 'string' ? extraData.client_id : undefined;
    jobs.add({ id, account, workflow: submitted, clientId, createdAt: Date.now() });
    // Under the control above, what runs is a node that fails naming the missing subscription.
    let runs: ApiWorkflow = failsLater
      ? { '1': { class_type: 'FailNode', inputs: { message: 'running workflows needs an active subscription' } } }
      : prompt;
    // A control: work the account already ran (the same node, the same inputs through every link) finishes at once from the cache.
    const ranBefore = jobs.cache.cachedNodes(account, prompt);
    if (ranBefore.length > 0 && ctx.isControl('engine-cached-work-instant'))
      runs = withCachedWorkInstant(runs, new Set(ranBefore));
    engine.submit({ id, account, workflow: runs, ...(extraData ? { extraData } : {}) });
    return reply.send({ prompt_id: id, number: number++, node_errors: {} });
  });
}
