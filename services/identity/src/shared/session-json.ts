import fastJson from 'fast-json-stringify';
import { SessionWithUserSchema } from './schemas';
import type { SessionWithUser } from './views';

/**
 * The get-session body exactly as its response schema allows (internal fields such as rememberMe dropped),
 * compiled once. The same string goes into Redis and the cache cookie, so the hot path sends it as it is.
 */
export const sessionJson: (value: SessionWithUser) => string = fastJson(SessionWithUserSchema as object);
