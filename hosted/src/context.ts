import { createContext, useContext } from 'react';
import type { AuthClient } from './client';
import type { LoadedConfig } from './config';
import type { Language, Translate } from './i18n';
import type { Carry } from './links';

/** What every page gets: the configuration, the client, the language and its strings, what to carry along. */
export interface Pages {
  config: LoadedConfig;
  client: AuthClient;
  apiBase: string;
  language: Language;
  t: Translate;
  carry: Carry;
  /** The signed-in user when the page loaded, if any. */
  user: { email: string; name: string } | null;
}

export const PagesContext = createContext<Pages | null>(null);

export function usePages(): Pages {
  const pages = useContext(PagesContext);
  if (!pages) throw new Error('usePages outside PagesContext');
  return pages;
}
