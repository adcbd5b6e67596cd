/**
 * @module The shape every chaos scenario shares: seeded, repeatable, and reporting the same
 * counts, each of which but `runs` and `faultsInjected` must be 0 (or `n/a` where the scenario
 * cannot produce that fault at all: never a 0 written in place of a measurement).
 */
import type { Count } from './audit'
import type { SharedControlPlane } from './environment'

export interface ScenarioOptions {
  /** Seeds every random choice (kill moments, faults, orders); the same seed repeats the run. */
  seed: number
  /** `short`: the version inside `npm test` (a few minutes for all); `full`: `npm run chaos`. */
  size: 'short' | 'full'
  /** Progress lines (stderr in the runner, silent in tests unless debugging). */
  log(message: string): void
  /**
   * The short test passes the test run's control plane: scenarios that do not stop the apiserver
   * use it instead of starting their own (see lib/environment.ts).
   */
  shared?: SharedControlPlane
}

/** Per scenario: what was tried, and what went wrong (each of the last four 0 or `n/a`). */
export interface ScenarioReport {
  id: string
  title: string
  seed: number
  /** Cycles, rollouts or objects the scenario drove through. */
  runs: number
  /** Kills, outages, dropped/duplicated events, EC2 errors, invalid objects sent. */
  faultsInjected: number
  /** Machines or instances that exist twice for one intent (same Machine, two instances...). */
  duplicates: Count
  /** Instances or Nodes without a Machine, or Machines without their instance, after convergence. */
  orphans: Count
  /** Machines not converged within the scenario's bound (two sweep periods after the last fault). */
  stuck: Count
  /** Objects or intents that disappeared (a Machine never created, an invalid object stored...). */
  lost: Count
  /** Anything else worth keeping: EC2 calls per action, restarts, timings. */
  details?: Record<string, unknown>
}

export interface Scenario {
  id: string
  title: string
  /**
   * Too slow for the short test inside `npm test` even at its short size (a worker restarted
   * several times, flapping that needs tens of seconds to mean anything): `npm run chaos` only.
   */
  fullOnly?: boolean
  /** Starts what it needs (own control plane, moto, NATS), runs, and tears everything down. */
  run(options: ScenarioOptions): Promise<ScenarioReport>
}

/** The counts that are neither 0 nor `n/a`: a scenario passes when there is none. */
export function failedCounts(report: ScenarioReport): string[] {
  return (['duplicates', 'orphans', 'stuck', 'lost'] as const).filter(
    (k) => report[k] !== 0 && report[k] !== 'n/a',
  )
}

/** Seconds since now, to one decimal: the time stamps a scenario's log lines and report carry. */
export function stopwatch(): () => number {
  const started = Date.now()
  return () => Math.round((Date.now() - started) / 100) / 10
}
