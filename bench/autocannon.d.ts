// The slice of autocannon's programmatic API the site benchmark uses (the package ships no types).
declare module "autocannon" {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }
  interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    /** Requests per second across all connections (unlimited when unset). */
    overallRate?: number;
    timeout?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    requests?: { method?: string; path?: string; setupRequest?: (req: RawRequest, context: Record<string, unknown>) => RawRequest }[];
  }
  interface Result {
    requests: Histogram & { sent: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    "1xx": number;
    "2xx": number;
    "3xx": number;
    "4xx": number;
    "5xx": number;
  }
  interface Instance extends Promise<Result> {
    stop(): void;
    /** Each answer as it arrives, with its latency in ms. */
    on(event: "response", listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): Instance;
  }
  function autocannon(opts: Options): Instance;
  export default autocannon;
}
