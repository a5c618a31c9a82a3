import { loadConfig } from './config';

/**
 * Mail worker entry. Until the mail issue lands there are no jobs to process: it validates the configuration,
 * reports that it is idle and waits for a signal, so deployments can already run it.
 */
const config = loadConfig();
console.log(`mail worker started (idle: no mail jobs yet; redis ${config.redisUrl ? 'configured' : 'not configured'})`);
const timer = setInterval(() => {}, 1 << 30);
const stop = () => {
  clearInterval(timer);
  console.log('mail worker stopped');
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
