import type { Sql } from '../../shared/sql';
import { eventData, type RecordedEvent } from '../audit';
import { eventJob, jobKey, WEBHOOK_TOPIC, type WebhookJob } from './message';
import type { Route, WebhookRepository } from './repository';

/** Whether an endpoint's list of wanted types (exact types, or prefixes ending in a dot) covers `type`. */
export function wants(eventTypes: readonly string[], type: string): boolean {
  return eventTypes.some((t) => (t.endsWith('.') ? type.startsWith(t) : t === type));
}

export interface OutboxWriter {
  add(topic: string, key: string, payload: unknown, tx?: Sql): Promise<boolean>;
}

/**
 * Which endpoints an event goes to, answered from memory (docs/decisions/0007-webhooks.md): the enabled endpoints
 * and their types, loaded once, reloaded every `refreshMs` (changes made by other instances), and changed at once
 * by this instance's own endpoint changes after they commit. An event no endpoint wants costs no query, which
 * keeps sign-in (an event each) as it was. A delivery re-reads its endpoint, so a message written in the few
 * seconds another instance needs to see a disabling or a deletion is dropped then.
 */
export class EndpointRouting {
  private routes: Route[] | null = null;
  private timer: NodeJS.Timeout | undefined;
  private loading: Promise<void> | null = null;
  /** Bumped by each own change: a reload that started before it does not overwrite it. */
  private version = 0;

  constructor(
    private readonly repo: WebhookRepository,
    private readonly outbox: OutboxWriter,
    private readonly refreshMs: number,
    private readonly warn: (message: string) => void,
  ) {}

  /** Reloads every `refreshMs` from now on. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.reload(), this.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Loads the enabled endpoints now (`sql`: the transaction asking, so no second pool connection is taken). */
  reload(sql?: Sql): Promise<void> {
    const started = this.version;
    this.loading ??= this.repo
      .routes(sql)
      .then((routes) => {
        if (this.version === started) this.routes = routes;
      })
      .catch((error) => this.warn(`webhook endpoints could not be reloaded: ${(error as Error).message}`))
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  /** This instance changed an endpoint (after the commit): routes follow at once. */
  changed(route: Route | null, id: string): void {
    this.version++;
    if (!this.routes) return;
    this.routes = this.routes.filter((r) => r.id !== id);
    if (route) this.routes.push(route);
  }

  /**
   * The audit writer's follower: in the event's transaction, one outbox row per enabled endpoint that wants the
   * event. The first event after start loads the endpoints on the event's own transaction.
   */
  follow = async (tx: Sql, event: RecordedEvent): Promise<void> => {
    if (!this.routes) {
      this.routes = await this.repo.routes(tx);
    }
    const targets = this.routes.filter((r) => wants(r.eventTypes, event.type));
    if (!targets.length) return;
    const data = eventData(event);
    for (const route of targets) {
      const job: WebhookJob = eventJob(route.id, data);
      await this.outbox.add(WEBHOOK_TOPIC, jobKey(job), job, tx);
    }
  };
}
