import type { ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Web } from '../../http/web';
import type { ProviderGateway } from './gateway';
import type { InteractionPages, InteractionService } from './interaction.service';

/** What the oidc-provider feature's route tables get: the shared `Web` and the feature's own services. */
export interface OidcProviderWeb extends Web {
  gateway: ProviderGateway;
  interactions: InteractionService;
  pages: InteractionPages & { error(code: string): string };
  /** Ends the request's service session and clears its cookies on the provider's answer (RP-initiated logout). */
  serviceSignOut(request: FastifyRequest, response: ServerResponse): Promise<void>;
}
