import { createHash, timingSafeEqual } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';

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

function jwtActor(settings: JwtSettings, keys: JWTVerifyGetKey) {
  return async (bearer: string): Promise<string | undefined> => {
    try {
      const { payload } = await jwtVerify(bearer, keys, {
        audience: settings.audience,
        ...(settings.issuer ? { issuer: settings.issuer } : {}),
      });
      const actor = typeof payload.email === 'string' ? payload.email : payload.sub;
      return actor || undefined;
    } catch {
      // Expired, wrong audience or issuer, bad signature, unknown key: all mean "not authenticated".
      return undefined;
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
