import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks' secret prefix: the rest is the base64 of the key bytes. */
const PREFIX = 'whsec_';
/** 32 random bytes (the format asks for 24 to 64). */
const SECRET_BYTES = 32;

/** A new endpoint secret: `whsec_` and the base64 of 32 random bytes. Shown once, stored sealed. */
export function newSecret(): string {
  return PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/**
 * One `v1,<signature>` entry of the `webhook-signature` header (Standard Webhooks): the base64 HMAC-SHA256 of
 * `${id}.${timestamp}.${body}` keyed with the secret's decoded bytes.
 */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The header value: one entry per secret in use (after a rotation, the new and the previous), space-separated. */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => sign(secret, id, timestamp, body)).join(' ');
}
