/**
 * Stable operationIds for client generators (they become method names): derived from the path relative to the base
 * path, in camelCase, a path parameter read as `By<Name>`, and the method appended where one path has several
 * operations: `/sign-in/email` → `signInEmail`, `/reset-password/{token}` → `resetPasswordByToken`,
 * `/callback/{providerId}` → `callbackByProviderIdGet` and `callbackByProviderIdPost`. A route may set its own
 * `operationId` in its schema; that one is kept.
 */

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type PathItem = Partial<Record<(typeof METHODS)[number], { operationId?: string }>>;

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `/admin/list-users` → `adminListUsers`; `{providerId}` → `ByProviderId`. */
export function operationIdOf(path: string, method?: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return param ? ['by', ...param[1].split(/[^A-Za-z0-9]+/)] : segment.split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean);
  if (method) words.push(method.toLowerCase());
  const [first = 'root', ...rest] = words;
  return first.charAt(0).toLowerCase() + first.slice(1) + rest.map(capitalized).join('');
}

/** Sets every operation's operationId that its route did not set; two operations never share one. */
export function withOperationIds(paths: Record<string, PathItem>): void {
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(paths)) {
    const methods = METHODS.filter((method) => item[method]);
    for (const method of methods) {
      const operation = item[method]!;
      const operationId = operation.operationId ?? operationIdOf(path, methods.length > 1 ? method : undefined);
      // First among the operation's fields, where a reader of the YAML looks for it.
      item[method] = { operationId, ...operation };
      const where = `${method.toUpperCase()} ${path}`;
      const other = seen.get(operationId);
      if (other) throw new Error(`OpenAPI: ${other} and ${where} have the same operationId ${operationId}`);
      seen.set(operationId, where);
    }
  }
}
