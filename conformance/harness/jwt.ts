// Tokens signed with the keys the harness holds (fixtures/keys), for the JWT cases.
import { importPKCS8, SignJWT, type JWTPayload } from 'jose';
import { branded } from './brand';
import { JWT_HS256_KEY, RS256_PRIVATE_KEY } from './profiles';

export interface TokenOptions {
  algorithm?: 'HS256' | 'RS256';
  expiresIn?: string | number;
  notBefore?: string | number;
  audience?: string;
  issuer?: string;
  /** Sign with another secret (a bad signature). */
  key?: string;
}

export async function signToken(payload: JWTPayload, options: TokenOptions = {}): Promise<string> {
  const algorithm = options.algorithm ?? 'HS256';
  // Claims named x-engine-… in the cases are x-hasura-… under that brand (brand.ts).
  let jwt = new SignJWT(branded(payload)).setProtectedHeader({ alg: algorithm }).setIssuedAt();
  if (options.expiresIn !== undefined) jwt = jwt.setExpirationTime(options.expiresIn);
  if (options.notBefore !== undefined) jwt = jwt.setNotBefore(options.notBefore);
  if (options.audience) jwt = jwt.setAudience(options.audience);
  if (options.issuer) jwt = jwt.setIssuer(options.issuer);
  const key = algorithm === 'HS256' ? new TextEncoder().encode(options.key ?? JWT_HS256_KEY) : await importPKCS8(RS256_PRIVATE_KEY, 'RS256');
  return jwt.sign(key);
}

/** Hasura-style claims under a namespace key. */
export const engineClaims = (role: string, allowed: string[], extra: Record<string, string> = {}) => ({
  'x-engine-default-role': role,
  'x-engine-allowed-roles': allowed,
  ...extra,
});
