import { z } from 'zod';

export const DELIVERY_STATUSES = ['queued', 'delivered', 'failed'] as const;
export const deliveryStatusSchema = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;

/** The reply as it leaves: the same on every attempt (its Message-ID above all). */
export interface OutgoingMessage {
  thread_id: string;
  message_id: string;
  /** Null only with log delivery, which needs no recipient. */
  to: string | null;
  from: string | null;
  subject: string;
  in_reply_to: string | null;
  references: string[];
  /** The approved draft, exactly. */
  body: string;
}

/** One thread's delivery record: the message, and where its delivery stands. */
export interface Delivery extends OutgoingMessage {
  status: DeliveryStatus;
  /** SMTP attempts since the message was (re)queued. */
  attempts: number;
  last_error: string | null;
  /** When the next attempt is due (queued only). */
  next_attempt_at: string;
  delivered_at: string | null;
  /** What the SMTP server answered on acceptance. */
  server_reply: string | null;
}

/** A sent thread's delivery, as the API shows it. */
export const deliveryViewSchema = z.object({
  status: deliveryStatusSchema.describe(
    '`queued` until the SMTP server accepts it (`delivered`) or refuses it for good (`failed`).',
  ),
  attempts: z.number().int().min(0).describe('SMTP attempts since it was last queued.'),
  message_id: z.string().describe('The reply’s own Message-ID, the same on every attempt.'),
  to: z.string().nullable().describe('The recipient (null with log delivery and no address).'),
  last_error: z.string().nullable(),
  delivered_at: z.iso.datetime().nullable(),
});
export type DeliveryView = z.infer<typeof deliveryViewSchema>;

export function deliveryView(delivery: Delivery): DeliveryView {
  return {
    status: delivery.status,
    attempts: delivery.attempts,
    message_id: delivery.message_id,
    to: delivery.to,
    last_error: delivery.last_error,
    delivered_at: delivery.delivered_at,
  };
}
