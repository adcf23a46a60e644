import { defineRoute, emptyBody, HttpError, type Route } from '@repo/http-kit';
import { z } from 'zod';
import { deliverySchema, deliveryStatusSchema, type Outbox } from '../outbox/outbox.js';

const deliveryId = z.object({ id: z.string().min(1).max(100) });

/** GET /webhooks/deliveries and POST /webhooks/deliveries/{id}/retry, behind the API's auth. */
export function webhookRoutes(outbox: Outbox): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/webhooks/deliveries',
      summary: 'Webhook deliveries, newest first (e.g. `?status=failed` to find what to retry)',
      query: z.object({
        status: deliveryStatusSchema.optional(),
        limit: z.coerce.number().int().min(1).max(500).default(100),
      }),
      responses: {
        200: {
          description: 'The deliveries.',
          schema: z.object({ deliveries: z.array(deliverySchema) }),
        },
      },
      handler: async ({ query, res }) => {
        res.json({ deliveries: await outbox.list(query) });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/webhooks/deliveries/{id}/retry',
      summary: 'Attempt a failed delivery again, now (same webhook-id, same body)',
      params: deliveryId,
      body: emptyBody,
      responses: {
        202: { description: 'The delivery, pending again.', schema: deliverySchema },
        404: { description: 'No such delivery (`delivery_not_found`).' },
        409: { description: 'The delivery has not failed (`delivery_not_failed`).' },
      },
      handler: async ({ params, res }) => {
        const result = await outbox.retry(params.id);
        if (!result) {
          throw new HttpError(404, 'delivery_not_found', 'There is no delivery with this id.');
        }
        const { delivery } = result;
        if (!result.retried) {
          throw new HttpError(409, 'delivery_not_failed', `The delivery is ${delivery.status}.`, {
            extra: {
              status_now: delivery.status,
            },
          });
        }
        res.status(202).json(delivery);
      },
    }),
  ];
}
