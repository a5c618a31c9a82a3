import type { Web } from '../../http/web';
import type { MagicLinkService } from './magic-link.service';

/** What the magic-link feature's route table gets: the shared `Web` and the feature's own services. */
export interface MagicLinkWeb extends Web {
  magicLinks: MagicLinkService;
  /** The cookie that binds a link to the browser that asked for it. */
  browserCookie: string;
}
