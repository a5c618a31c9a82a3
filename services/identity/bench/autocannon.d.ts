/** The part of autocannon 9's programmatic API the bench uses (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface Client {
      setHeadersAndBody(headers: Record<string, string>, body?: string): void;
    }

    interface Options {
      url: string;
      setupClient?: (client: Client) => void;
      connections?: number;
      duration?: number;
      /** Total requests over all connections (instead of a duration). */
      amount?: number;
      pipelining?: number;
      timeout?: number;
      method?: 'GET' | 'POST';
      headers?: Record<string, string>;
      body?: string;
      verifyBody?: (body: string) => boolean;
    }

    interface Histogram {
      average: number;
      p50: number;
      p99: number;
      max: number;
      total: number;
    }

    interface Result {
      requests: Histogram;
      latency: Histogram;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
    }
  }

  /** The run: a promise of the result that is also an emitter ('response': client, status, bytes, ms). */
  function autocannon(options: autocannon.Options): Promise<autocannon.Result> & import('node:events').EventEmitter;
  export = autocannon;
}
