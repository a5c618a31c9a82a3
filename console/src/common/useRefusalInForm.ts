import { HttpError, useNotify } from 'react-admin';

/** How long the focus waits for the refused field to show its message (react-admin sets it after the call). */
const FOCUS_FRAMES = 20;

/**
 * A create page's `onError`: a refusal about one of the form's fields (`asFormErrors` gave it `body.errors`) is
 * shown by react-admin under that field, which then takes the focus so its message (its description) is read out;
 * any other refusal is a notification with the catalogue's message, as react-admin's own default does.
 */
export function useRefusalInForm() {
  const notify = useNotify();
  return (error: unknown) => {
    const errors = error instanceof HttpError ? (error.body as { errors?: Record<string, string> })?.errors : undefined;
    const field = errors ? Object.keys(errors)[0] : undefined;
    if (field) return focusWhenRefused(field, FOCUS_FRAMES);
    const message = error instanceof Error && error.message ? error.message : 'ra.notification.http_error';
    notify(message, { type: 'error', messageArgs: { _: message } });
  };
}

function focusWhenRefused(field: string, frames: number) {
  const input = document.querySelector<HTMLElement>(`form [name="${field}"]`);
  if (input?.getAttribute('aria-invalid') === 'true' || frames <= 0) input?.focus();
  else requestAnimationFrame(() => focusWhenRefused(field, frames - 1));
}
