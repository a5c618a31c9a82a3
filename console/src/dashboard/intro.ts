/** May the signed-in user do `action` on `resource` (the console's access table, providers/access.ts)? */
export type CanAccess = (resource: string, action: string) => boolean;

/**
 * What each menu area lets a user do, most first: the first phrase whose permission the user holds is said (i18n
 * keys under console.dashboard.can).
 */
const AREAS: readonly (readonly [resource: string, action: string, phrase: string])[][] = [
  [
    ['users', 'edit', 'manage_users'],
    ['users', 'list', 'see_users'],
  ],
  [
    ['organizations', 'manage', 'manage_organizations'],
    ['organizations', 'list', 'see_organizations'],
  ],
  [['events', 'list', 'read_audit']],
  [
    ['webhooks', 'edit', 'manage_webhooks'],
    ['webhooks', 'list', 'see_webhooks'],
  ],
];

/**
 * The dashboard's intro for the signed-in user: an impersonation session is told it acts as the user (it opens no
 * admin page, whatever the role); otherwise what the menu lets this role do, from the same access table as the
 * menu and the buttons; or that it opens nothing. Answers the i18n key and the phrases' keys to list.
 */
export function dashboardIntro(impersonating: boolean, can: CanAccess): { key: string; phrases: string[] } {
  if (impersonating) return { key: 'console.dashboard.intro_impersonating', phrases: [] };
  const phrases = AREAS.flatMap((choices) => {
    const found = choices.find(([resource, action]) => can(resource, action));
    return found ? [`console.dashboard.can.${found[2]}`] : [];
  });
  return { key: phrases.length ? 'console.dashboard.intro' : 'console.dashboard.intro_nothing', phrases };
}
