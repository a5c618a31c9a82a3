import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The registered OAuth clients (docs/oauth-clients.md), managed by operators and read by the OpenID Provider.
 *
 * - `client_id`: random base62 text the service makes (the primary key, and what the client sends).
 * - `type`: `confidential` (holds a secret) or `public` (cannot: a browser or native app, PKCE instead).
 *   `secret_hash` is the SHA-256 of a confidential client's secret (docs/decisions/0021-oauth-client-secrets.md),
 *   present exactly for confidential clients; after a rotation `previous_secret_hash` is still accepted until
 *   `previous_secret_expires_at`.
 * - What the client may do: its exact redirect and post-logout redirect URIs, its grant types, its scopes, how it
 *   authenticates at the token endpoint, whether PKCE is required, its access-token format and optional lifetimes,
 *   whether it is first-party (no consent asked), its back-channel logout URI, whether `sub` is pairwise.
 * - `organization_id`: the organization that owns it (deleted with it), or null for the service's own.
 * - `created_by`: the user id of the operator who registered it (kept when that user is deleted).
 */
export class OauthClients1796500000200 implements MigrationInterface {
  name = 'OauthClients1796500000200';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "oauth_clients" (
        "client_id" text NOT NULL,
        "name" text NOT NULL,
        "logo_uri" text,
        "description" text,
        "type" text NOT NULL,
        "secret_hash" text,
        "previous_secret_hash" text,
        "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE,
        "redirect_uris" text[] NOT NULL,
        "post_logout_redirect_uris" text[] NOT NULL,
        "grant_types" text[] NOT NULL,
        "scopes" text[] NOT NULL,
        "token_endpoint_auth_method" text NOT NULL,
        "require_pkce" boolean NOT NULL,
        "access_token_format" text NOT NULL,
        "access_token_ttl_sec" integer,
        "refresh_token_ttl_sec" integer,
        "id_token_ttl_sec" integer,
        "first_party" boolean NOT NULL,
        "organization_id" uuid REFERENCES "organizations" ("id") ON DELETE CASCADE,
        "backchannel_logout_uri" text,
        "pairwise_subject" boolean NOT NULL,
        "created_by" text,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        CONSTRAINT "oauth_clients_type_known" CHECK ("type" IN ('confidential', 'public')),
        CONSTRAINT "oauth_clients_secret_iff_confidential" CHECK (("type" = 'confidential') = ("secret_hash" IS NOT NULL)),
        CONSTRAINT "oauth_clients_previous_secret_expires" CHECK (("previous_secret_hash" IS NULL) = ("previous_secret_expires_at" IS NULL)),
        CONSTRAINT "oauth_clients_token_format_known" CHECK ("access_token_format" IN ('jwt', 'opaque')),
        CONSTRAINT "oauth_clients_pkey" PRIMARY KEY ("client_id")
      )`,
    );
    await queryRunner.query(
      'CREATE INDEX "oauth_clients_created_idx" ON "oauth_clients" ("created_at" DESC, "client_id" DESC)',
    );
    await queryRunner.query(
      'CREATE INDEX "oauth_clients_organization_idx" ON "oauth_clients" ("organization_id") WHERE "organization_id" IS NOT NULL',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "oauth_clients"');
  }
}
