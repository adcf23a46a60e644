import { createHash, timingSafeEqual } from 'node:crypto';
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { HttpError } from '../errors/http-error.js';

/** A bearer token and the reviewer (or client) it stands for. */
export interface NamedToken {
  name: string;
  token: string;
}

export interface JwtSettings {
  jwksUrl: string;
  audience: string;
  issuer?: string | undefined;
}

/** Who may call the service: named static tokens, and/or JWTs verified against a JWKS. */
export interface AuthSettings {
  tokens: NamedToken[];
  jwt?: JwtSettings;
}

/** The actor a presented bearer token stands for, or undefined when it stands for nobody. */
export type Authenticator = (bearer: string) => Promise<string | undefined>;

const digest = (value: string) => createHash('sha256').update(value).digest();
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;

/** Compares against every token, whatever matched, so the time taken says nothing about which. */
function staticTokens(tokens: NamedToken[]): (bearer: string) => string | undefined {
  const known = tokens.map(({ name, token }) => ({ name, hash: digest(token) }));
  return (bearer) => {
    const presented = digest(bearer);
    let actor: string | undefined;
    for (const { name, hash } of known) if (timingSafeEqual(presented, hash)) actor ??= name;
    return actor;
  };
}

/**
 * What jose says of a token it refused (expired, wrong audience or issuer, bad signature, unknown
 * key, malformed): "not authenticated". Anything else (the key set could not be fetched, timed
 * out, or was not a key set) says nothing about the token.
 */
const TOKEN_REFUSED = new Set([
  'ERR_JWT_EXPIRED',
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWT_INVALID',
  'ERR_JWS_INVALID',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
]);

/** 503: the identity provider's key set cannot be had, so no JWT can be checked just now. */
export class AuthUnavailable extends HttpError {
  constructor(cause: unknown) {
    super(
      503,
      'auth_unavailable',
      "The identity provider's signing keys could not be fetched, so the token could not be checked. Try again shortly.",
      { headers: { 'Retry-After': '30' } },
    );
    this.cause = cause;
  }
}

function jwtActor(settings: JwtSettings, keys: JWTVerifyGetKey) {
  return async (bearer: string): Promise<string | undefined> => {
    try {
      const { payload } = await jwtVerify(bearer, keys, {
        audience: settings.audience,
        ...(settings.issuer ? { issuer: settings.issuer } : {}),
        // A token that never expires is not taken, whoever signed it.
        requiredClaims: ['exp'],
      });
      const actor = typeof payload.email === 'string' ? payload.email : payload.sub;
      return actor || undefined;
    } catch (error) {
      if (error instanceof errors.JOSEError && TOKEN_REFUSED.has(error.code)) return undefined;
      // Not the token's fault: a 401 would send a valid caller away, and say nothing to operators.
      throw new AuthUnavailable(error);
    }
  };
}

export function createAuthenticator(settings: AuthSettings): Authenticator {
  const byToken = staticTokens(settings.tokens);
  const byJwt = settings.jwt
    ? jwtActor(settings.jwt, createRemoteJWKSet(new URL(settings.jwt.jwksUrl)))
    : undefined;
  return async (bearer) => {
    const actor = byToken(bearer);
    if (actor !== undefined) return actor;
    return byJwt && JWT_SHAPE.test(bearer) ? byJwt(bearer) : undefined;
  };
}

/** Whether any way of authenticating is configured (otherwise the service is open). */
export const authConfigured = (settings: AuthSettings) =>
  settings.tokens.length > 0 || settings.jwt !== undefined;
