import type { Web } from '../../http/web';
import type { IntrospectionService } from './introspection.service';

/** What the introspection feature's route tables get: the shared `Web` and the feature's own services. */
export interface IntrospectionWeb extends Web {
  introspection: IntrospectionService;
}
