import { defineRoute, HttpError, type Route } from '@repo/http-kit';
import { z } from 'zod';
import { GUIDELINE_MAX_CHARS, guidelineSchema, scopeKindSchema } from './guideline.js';
import type { GuidelineStore } from './guideline-store.js';

const idParams = z.object({ guideline_id: z.string().max(100) });

const guidelineChange = z
  .strictObject({
    rule: z
      .string()
      .max(GUIDELINE_MAX_CHARS)
      .refine((rule) => rule.trim().length > 0, 'must not be empty')
      .optional()
      .describe('The rule’s new text.'),
    enabled: z.boolean().optional().describe('false: kept, but given to no draft.'),
  })
  .refine((change) => change.rule !== undefined || change.enabled !== undefined, {
    message: 'give rule or enabled',
  });

const notFound = { description: 'No such guideline (`guideline_not_found`).' };

function guidelineNotFound(id: string): HttpError {
  return new HttpError(404, 'guideline_not_found', `No guideline ${id}.`, {
    extra: { guideline_id: id },
  });
}

/** GET /guidelines, PATCH and DELETE /guidelines/{id}: what was learned, seen and undone. */
export function guidelineRoutes(store: GuidelineStore, clock: () => Date): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/guidelines',
      summary: 'The guidelines learned from reviewers, newest first, with their provenance.',
      query: z.object({
        scope: scopeKindSchema.optional().describe('Only this kind of scope.'),
        value: z.string().max(320).optional().describe('Only this sender, domain or category.'),
      }),
      responses: {
        200: {
          description: 'The guidelines.',
          schema: z.object({ guidelines: z.array(guidelineSchema) }),
        },
      },
      handler: async ({ query, res }) => {
        res.json({ guidelines: await store.list({ kind: query.scope, value: query.value }) });
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/guidelines/{guideline_id}',
      summary: 'Edit a guideline’s text, or disable (enable) it.',
      params: idParams,
      body: guidelineChange,
      responses: { 200: { description: 'Changed.', schema: guidelineSchema }, 404: notFound },
      handler: async ({ params, body, res }) => {
        const changed = await store.update(
          params.guideline_id,
          { rule: body.rule?.trim(), enabled: body.enabled },
          clock().toISOString(),
        );
        if (!changed) throw guidelineNotFound(params.guideline_id);
        res.json(changed);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/guidelines/{guideline_id}',
      summary: 'Delete a guideline: no later draft is given it.',
      params: idParams,
      responses: { 204: { description: 'Deleted.' }, 404: notFound },
      handler: async ({ params, res }) => {
        if (!(await store.delete(params.guideline_id)))
          throw guidelineNotFound(params.guideline_id);
        res.status(204).end();
      },
    }),
  ];
}
