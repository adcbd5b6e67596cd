/**
 * @module The shape every benchmark shares. A benchmark measures a figure several times and,
 * in the same run on the same control plane, the limit it is compared with; the runner prints
 * the table and writes the JSON.
 */
import type { ControlPlane, ControlPlaneOptions } from '../../harness/controlplane'

export interface BenchOptions {
  /** `--quick`: smaller sizes and fewer runs (the whole suite in under 5 minutes). */
  quick: boolean
  /** Repetitions per figure (default 3, 1 with --quick); report the median. */
  runs: number
}

/** One figure: the median of its samples, and the limit measured in the same run. */
export interface Measurement {
  name: string
  unit: string
  /** The median of `samples`. */
  value: number
  samples: number[]
  /** What the figure is compared with, e.g. `{ name: 'tight client', value: 41.2 }`. */
  limit?: { name: string; value: number }
  /** value / limit.value (how far from the limit; set by `measurement`). */
  ratio?: number
  note?: string
}

export interface BenchReport {
  id: string
  title: string
  measurements: Measurement[]
  /** Anything else worth keeping in the JSON (sizes, per-verb tables, profiles). */
  details?: Record<string, unknown>
}

/** What the runner hands a benchmark: its options, a fresh control plane and a progress logger. */
export interface BenchEnv {
  options: BenchOptions
  controlPlane: ControlPlane
  /** Progress lines on stderr (the table goes to stdout). */
  log(message: string): void
}

export interface Bench {
  id: string
  title: string
  /** The control plane this benchmark needs (each benchmark gets a fresh one). */
  controlPlane?: ControlPlaneOptions
  run(env: BenchEnv): Promise<BenchReport>
}
