/**
 * The node's figures for the operator in the Prometheus text format (prom-client), served at `/metrics` by an API
 * node (`voxdesk serve`, with the administering key) and on a worker's health port (`voxdesk worker --health-port`).
 *
 * - `voxdesk_queue_jobs{state, waiting}`: the cluster's queued and running jobs (one query at scrape time, so
 *   every node answers the same figure; `waiting` is the waiting code of a queued job, or "none").
 * - `voxdesk_jobs_claimed_total`, `voxdesk_lease_expiries_total`: claims this node made, and jobs whose lease had
 *   lapsed that this node put back in the queue (the job engine counts both).
 * - `voxdesk_jobs_finished_total{product, outcome}`: jobs this node settled, by terminal status.
 * - `voxdesk_http_requests_total{method, status}` and `voxdesk_http_request_duration_seconds{method}`: every HTTP
 *   request this node answered, measured at the node:http server (below the routes, so the request path stays as
 *   it is: no middleware is added in front of the routes' gates).
 * - `voxdesk_node_info{role, node}` and the process figures prom-client collects by default (memory, CPU, event loop).
 */
import type { Server, ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Job } from '../../common/api-types.js';
import { isTerminal } from '../../common/job-states.js';
import type { JobEngine } from '../../jobs/engine/job-service.js';
import type { Store } from '../../store/store.js';
import type { ServiceRole } from '../config.js';

/** Terminal jobs remembered so a job is counted once however many changes of it are announced after it ended. */
const COUNTED_MAX = 10_000;

export interface NodeMetrics {
  readonly registry: Registry;
  /** Counts every request `server` answers. */
  watch(server: Server): void;
  /** The text to answer a scrape with. */
  scrape(): Promise<string>;
  readonly contentType: string;
  stop(): void;
}

export function createNodeMetrics(input: { store: Store; jobs: JobEngine; role: ServiceRole; node: string }): NodeMetrics {
  const { store, jobs } = input;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'voxdesk_process_' });

  new Gauge({ name: 'voxdesk_node_info', help: 'This node: its role in the cluster and its id (always 1)', labelNames: ['role', 'node'], registers: [registry] }).set(
    { role: input.role, node: input.node },
    1,
  );
  new Gauge({
    name: 'voxdesk_queue_jobs',
    help: 'Queued and running jobs of the whole service, by state and waiting code',
    labelNames: ['state', 'waiting'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await store.repos.jobs.countByStatus(null)) {
        this.inc({ state: row.status, waiting: row.error_code ?? 'none' }, Number(row.n));
      }
    },
  });
  new Counter({
    name: 'voxdesk_jobs_claimed_total',
    help: 'Queued jobs this node claimed and started',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(jobs.counters().claims);
    },
  });
  new Counter({
    name: 'voxdesk_lease_expiries_total',
    help: 'Running jobs whose lease had lapsed (their node died or lost the database) that this node put back in the queue',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(jobs.counters().leaseExpiries);
    },
  });
  const finished = new Counter({ name: 'voxdesk_jobs_finished_total', help: 'Jobs this node settled, by product and outcome', labelNames: ['product', 'outcome'], registers: [registry] });
  const counted = new Set<string>();
  const onChange = (job: Job): void => {
    if (!isTerminal(job.status) || counted.has(job.id)) return;
    if (counted.size >= COUNTED_MAX) counted.clear();
    counted.add(job.id);
    finished.inc({ product: job.product, outcome: job.status });
  };
  jobs.events.on('job-changed', onChange);

  const requests = new Counter({ name: 'voxdesk_http_requests_total', help: 'HTTP requests answered by this node', labelNames: ['method', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: 'voxdesk_http_request_duration_seconds',
    help: 'Time from a request’s arrival to the end of its answer (held POSTs included)',
    labelNames: ['method'],
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 240],
    registers: [registry],
  });

  return {
    registry,
    contentType: registry.contentType,
    watch(server) {
      // Per request: its arrival time on the response and one listener shared by all (no closure per request).
      function finished(this: ServerResponse & { [STARTED]?: number }): void {
        const method = METHODS.has(this.req.method ?? '') ? this.req.method! : 'OTHER';
        requests.inc({ method, status: String(this.statusCode) });
        latency.observe({ method }, (performance.now() - this[STARTED]!) / 1000);
      }
      server.on('request', (_req, res: ServerResponse & { [STARTED]?: number }) => {
        res[STARTED] = performance.now();
        res.on('finish', finished);
      });
    },
    scrape: () => registry.metrics(),
    stop() {
      jobs.events.off('job-changed', onChange);
      registry.clear();
    },
  };
}

/** When a response's request arrived (performance.now()). */
const STARTED = Symbol('voxdesk.requestStarted');

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
