export type { KeyValueStore } from './key-value-store';
export { MemoryStore } from './memory-store';
export { RedisStore } from './redis-store';
