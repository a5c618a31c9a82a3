import type { SignInSteps } from '../../shared/sign-in';
import type { SignInDeps } from './deps';
import { SignInSeam } from './seam';

export type { SignInDeps } from './deps';

/**
 * The sign-in seam (docs/architecture.md "The sign-in seam"): every way of signing in proves an identity and ends
 * here. No routes of its own: the routes of each method call it through `Web.signIn`.
 */
export interface SignInFeature {
  signIn: SignInSteps;
}

export function createSignInFeature(deps: SignInDeps): SignInFeature {
  return { signIn: new SignInSeam(deps) };
}
