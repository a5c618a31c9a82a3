import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';

/**
 * Binds an OAuth state to the browser that started the flow: a signed, HttpOnly cookie holding the
 * state, sent only to the callback path. SameSite=Lax: the provider's redirect back is a top-level GET.
 */
export class StateCookie {
  readonly name: string;
  private readonly options: { httpOnly: true; secure: boolean; sameSite: 'lax'; path: string };

  constructor(config: Config) {
    const secure = config.publicUrl.startsWith('https://');
    this.name = `${secure ? '__Secure-' : ''}${config.session.cookiePrefix}.oauth_state`;
    this.options = { httpOnly: true, secure, sameSite: 'lax', path: `${config.basePath}/callback` };
  }

  set(reply: FastifyReply, state: string, maxAgeSec: number): void {
    reply.setCookie(this.name, state, { ...this.options, signed: true, maxAge: maxAgeSec });
  }

  /** The state this browser holds, or null (no cookie, or a forged one). */
  read(request: FastifyRequest): string | null {
    const raw = request.cookies[this.name];
    if (!raw) return null;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid ? unsigned.value : null;
  }

  clear(reply: FastifyReply): void {
    reply.clearCookie(this.name, this.options);
  }
}
