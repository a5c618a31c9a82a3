import { HttpError, useNotify } from 'react-admin';
import { refusalMessage } from '../common/refusal';
import { type ApplicationValues, refusedPath } from './applicationForm';

/** How long the focus waits for the refused field to show its message (react-hook-form sets it after the submit). */
const FOCUS_FRAMES = 20;

/**
 * What a create or edit form's submit answers for an API refusal: the errors react-admin shows under the field the
 * refusal names (a URI list's row, `redirectUris.1.uri`), which then takes the focus; any other refusal (nothing to
 * update, a rule about no field) is a notification with the catalogue's message, and the form keeps what was typed.
 */
export function useRefusalInApplicationForm() {
  const notify = useNotify();
  return (error: unknown, values: ApplicationValues): Record<string, string> | undefined => {
    const body =
      error instanceof HttpError ? (error.body as { details?: { field?: string; problem?: string }[] }) : null;
    const detail = body?.details?.[0];
    const path = refusedPath(detail?.field, values);
    const message = error instanceof Error && error.message ? error.message : 'ra.notification.http_error';
    if (path) {
      focusWhenRefused(path, FOCUS_FRAMES);
      return { [path]: refusalMessage(message, detail?.problem) };
    }
    notify(refusalMessage(message, detail?.problem), { type: 'error' });
    return undefined;
  };
}

function focusWhenRefused(path: string, frames: number) {
  const input = document.querySelector<HTMLElement>(`form [name="${path}"]`);
  if (input?.getAttribute('aria-invalid') === 'true' || frames <= 0) input?.focus();
  else requestAnimationFrame(() => focusWhenRefused(path, frames - 1));
}
