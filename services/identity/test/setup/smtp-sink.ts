import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as the sink received and parsed it. */
export interface SinkMessage {
  /** SMTP envelope: MAIL FROM and RCPT TO. */
  envelope: { from: string; to: string[] };
  /** Address of the From header, and the header as displayed (`Name <address>`). */
  from: string;
  fromText: string;
  /** Addresses of the To header. */
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Raw header lines as received, in order (`key` lowercased). */
  headers: { key: string; line: string }[];
  /** The whole RFC 822 message. */
  raw: string;
}

export interface SmtpSinkOptions {
  /** Refuse this many messages first (at the end of DATA), with `refuseCode`. */
  refuse?: number;
  /** 4xx: a temporary failure the sender retries; 5xx: permanent. Default 451. */
  refuseCode?: number;
  /** Wait this long before answering each DATA (a slow server, to catch a send in flight). */
  holdMs?: number;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  readonly messages: SinkMessage[];
  /** DATA transfers seen, accepted or refused. */
  readonly attempts: number;
  /** The first received message matching `predicate` (already received or arriving within `timeoutMs`). */
  waitFor(predicate?: (message: SinkMessage) => boolean, timeoutMs?: number): Promise<SinkMessage>;
  /** Refuse the next `count` messages with `code`. */
  refuseNext(count: number, code?: number): void;
  /** Forget the received messages, the attempt count and any pending refusals or hold. */
  clear(): void;
  hold(ms: number): void;
  stop(): Promise<void>;
}

/** The value of the first header named `name` (case-insensitive), without the name. */
export function headerValue(message: SinkMessage, name: string): string | undefined {
  const line = message.headers.find((h) => h.key === name.toLowerCase())?.line;
  return line?.slice(line.indexOf(':') + 1).trim();
}

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  ([] as AddressObject[])
    .concat(field ?? [])
    .flatMap((a) => a.value)
    .map((v) => v.address ?? '');

/**
 * A real SMTP server on 127.0.0.1 and a random port (no auth, no TLS) that keeps what it receives, parsed by
 * mailparser: the test double for a mail server, reached through the real network path. The browser tests of the
 * console and of the hosted pages use it too (e2e/world.ts points their service's SMTP_URL at one).
 */
export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const events = new EventEmitter();
  const messages: SinkMessage[] = [];
  let attempts = 0;
  let refuse = options.refuse ?? 0;
  let refuseCode = options.refuseCode ?? 451;
  let holdMs = options.holdMs ?? 0;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 2000,
    onData(stream, session, callback) {
      attempts++;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (holdMs > 0) await new Promise((r) => setTimeout(r, holdMs));
        if (refuse > 0) {
          refuse--;
          const error = Object.assign(new Error('refused by the test sink'), { responseCode: refuseCode });
          return callback(error);
        }
        try {
          const raw = Buffer.concat(chunks);
          const parsed = await simpleParser(raw);
          const envelopeFrom = session.envelope.mailFrom;
          const message: SinkMessage = {
            envelope: {
              from: envelopeFrom ? envelopeFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            from: addresses(parsed.from)[0] ?? '',
            fromText: parsed.from?.text ?? '',
            to: addresses(parsed.to),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers: [...parsed.headerLines],
            raw: raw.toString('utf8'),
          };
          messages.push(message);
          callback();
          events.emit('message', message);
        } catch (error) {
          callback(Object.assign(error as Error, { responseCode: 554 }));
        }
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.on('error', () => {}); // a client dropping its connection is not a test failure
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    get attempts() {
      return attempts;
    },
    waitFor(predicate = () => true, timeoutMs = 10_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const onMessage = (message: SinkMessage) => {
          if (!predicate(message)) return;
          clearTimeout(timer);
          events.off('message', onMessage);
          resolve(message);
        };
        const timer = setTimeout(() => {
          events.off('message', onMessage);
          const seen = messages.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none';
          reject(new Error(`smtp sink: no matching message within ${timeoutMs} ms (received: ${seen})`));
        }, timeoutMs);
        events.on('message', onMessage);
      });
    },
    refuseNext(count, code = 451) {
      refuse = count;
      refuseCode = code;
    },
    hold(ms) {
      holdMs = ms;
    },
    clear() {
      messages.length = 0;
      attempts = 0;
      refuse = 0;
      holdMs = 0;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
