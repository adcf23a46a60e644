/** Why an attempt failed, and whether trying again later can help. */
interface DeliveryFailure {
  permanent: boolean;
  /** For `last_error`: the SMTP reply or the connection error, never the message. */
  message: string;
  /** The SMTP server's reply, when it answered (`last_response`). */
  response: string | null;
}

/** Commands nodemailer refuses before talking to a server: retrying the same message cannot help. */
const PERMANENT_CODES = new Set(['EENVELOPE', 'EMESSAGE']);

/**
 * SMTP 5xx (the recipient or the message refused) is permanent; 4xx, a refused or timed-out
 * connection, and anything else unknown are transient.
 */
export function classifyDeliveryFailure(error: unknown): DeliveryFailure {
  const { code, responseCode, response, message } = Object(error) as Record<string, unknown>;
  const reply = typeof response === 'string' ? response : undefined;
  const smtpCode = typeof code === 'string' ? code : '';
  const text = reply ?? (typeof message === 'string' ? message : String(error));
  return {
    permanent:
      typeof responseCode === 'number' ? responseCode >= 500 : PERMANENT_CODES.has(smtpCode),
    message: `${smtpCode ? `${smtpCode}: ` : ''}${text}`.slice(0, 500),
    response: reply?.slice(0, 500) ?? null,
  };
}
