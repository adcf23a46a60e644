/** Why an attempt failed, and whether trying again later can help. */
interface DeliveryFailure {
  permanent: boolean;
  /** For `last_error`: the SMTP reply or the connection error, never the message. */
  message: string;
  /** The SMTP server's reply, when it answered (`last_response`). */
  response: string | null;
}

interface SmtpError {
  code?: unknown;
  responseCode?: unknown;
  response?: unknown;
  message?: unknown;
}

/** Commands nodemailer refuses before talking to a server: retrying the same message cannot help. */
const PERMANENT_CODES = new Set(['EENVELOPE', 'EMESSAGE']);

/**
 * SMTP 5xx (the recipient or the message refused) is permanent; 4xx, a refused or timed-out
 * connection, and anything else unknown are transient.
 */
export function classifyDeliveryFailure(error: unknown): DeliveryFailure {
  const smtp = (typeof error === 'object' && error !== null ? error : {}) as SmtpError;
  const responseCode = typeof smtp.responseCode === 'number' ? smtp.responseCode : undefined;
  const code = typeof smtp.code === 'string' ? smtp.code : undefined;
  const text =
    typeof smtp.response === 'string'
      ? smtp.response
      : typeof smtp.message === 'string'
        ? smtp.message
        : String(error);
  const permanent =
    responseCode !== undefined
      ? responseCode >= 500
      : code !== undefined && PERMANENT_CODES.has(code);
  return {
    permanent,
    message: `${code ? `${code}: ` : ''}${text}`.slice(0, 500),
    response: typeof smtp.response === 'string' ? smtp.response.slice(0, 500) : null,
  };
}
