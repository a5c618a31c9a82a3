import type { WorkState } from '../../outbox/outbox';
import type { WebhookJob } from './message';

/** Where webhook messages wait for their attempts: BullMQ (Redis), or the API itself. */
export interface WebhookQueue {
  /** Queues a message under `key` (a second hand-over of the key is dropped); answers the route it went to. */
  enqueue(key: string, job: WebhookJob): Promise<string>;
  /** What became of message `key` handed to `route`. Throws when that queue cannot tell now. */
  state(key: string, route: string): Promise<WorkState>;
  routes(): string[];
  counts(): Promise<Record<string, number>>;
  close(): Promise<void>;
}
