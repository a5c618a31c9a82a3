import type { OAuthClientView } from './schemas';

/**
 * What a client is registered with, as the rules check it and the repository stores it: the client's answer
 * without what the service itself keeps (its id, the secret's state, who made it and when).
 */
export type ClientSettings = Omit<
  OAuthClientView,
  'clientId' | 'previousSecretExpiresAt' | 'createdBy' | 'createdAt' | 'updatedAt'
>;

/** A client as stored: its settings, the hashes of its secrets (never the secrets), and who made it when. */
export interface ClientRow extends ClientSettings {
  clientId: string;
  /** Present exactly for a confidential client. */
  secretHash: string | null;
  previousSecretHash: string | null;
  previousSecretExpiresAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}
