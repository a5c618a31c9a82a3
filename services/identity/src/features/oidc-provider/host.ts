import type { SigningKeys } from '../jwt';
import type { ClientSource } from './clients';
import { type BuiltProvider, buildProvider, type ProviderParts } from './provider';

/**
 * The provider for the current key set. The library fixes its keystore when it is built, so a new key set (a
 * rotation here or on another instance, a retired key dropped) builds a new provider at the next request; the
 * state is all in the stores, so nothing in progress is lost, and requests already running finish on the old one.
 */
export class ProviderHost {
  private built: { generation: number; value: BuiltProvider } | null = null;

  constructor(
    private readonly keys: SigningKeys,
    private readonly clients: ClientSource,
    private readonly parts: ProviderParts,
  ) {}

  async current(): Promise<BuiltProvider> {
    const set = await this.keys.privateSet();
    const generation = this.keys.generation;
    if (this.built?.generation === generation) return this.built.value;
    const value = buildProvider(set, this.parts, await this.clients.scopes());
    this.built = { generation, value };
    return value;
  }
}
