import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config';

/** Query values and path segments that carry secrets never reach a log line (SECURITY.md). */
export function redactUrl(url: string): string {
  return url
    .replace(/([?&](?:token|code|state|id_token|access_token|refresh_token)=)[^&#]*/gi, '$1[redacted]')
    .replace(/\/(reset-password|verify-email|delete-user\/callback)\/[^/?#]+/g, '/$1/[redacted]');
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        ...(config.apiKey.header === 'x-api-key' ? [] : [`req.headers["${config.apiKey.header}"]`]),
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}
