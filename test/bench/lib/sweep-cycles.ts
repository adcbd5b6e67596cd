/**
 * @module The worker's steady-state cost over whole sweep cycles: its own apiserver calls
 * (`machine_api_kube_requests_total`, by verb) from one sweep start to the start `cycles` sweeps
 * later, so the window holds exactly `cycles` sweeps and the quiet time between them. A sweep
 * start is a rise of the worker's Machine list count after a quiet spell (a sweep lists Machines
 * page by page; the watches list only when they start or get 410 Gone).
 */
import { type ApiserverAccess, scrapeRequestCounts } from './apiserver-metrics'
import { parseLabels, type RequestCounts } from './apiserver-metrics-text'

const sampleLine = /^machine_api_kube_requests_total\{([^}]*)\}\s+(\S+)/

/** The worker's own calls keyed `verb resource` (e.g. `get machines`), from its /metrics text. */
export function ownRequestCounts(text: string): RequestCounts {
  const counts: RequestCounts = {}
  for (const line of text.split('\n')) {
    const match = sampleLine.exec(line)
    if (!match) continue
    const labels = parseLabels(match[1] ?? '')
    const key = `${labels.verb} ${labels.resource}`
    counts[key] = (counts[key] ?? 0) + Number(match[2])
  }
  return counts
}

interface Mark {
  at: number
  own: RequestCounts
  apiserver: RequestCounts
}

export interface SweepCycles {
  cycles: number
  windowMs: number
  /** The worker's own calls in the window, by `verb resource`. */
  own: RequestCounts
  /** Every apiserver request in the window (kcm-less bench plane: the worker and the watches). */
  apiserver: RequestCounts
}

export async function measureSweepCycles(options: {
  metricsUrl: string
  access: ApiserverAccess
  cycles: number
  periodMs: number
}): Promise<SweepCycles> {
  const { periodMs } = options
  const read = async () => ownRequestCounts(await (await fetch(options.metricsUrl)).text())
  const machineLists = (counts: RequestCounts) => counts['list machines'] ?? 0
  // Quiet for half a period, then a rise: a new sweep (its later pages are the same sweep).
  const nextSweepStart = async (): Promise<Mark> => {
    let last = machineLists(await read())
    let lastRise = Date.now()
    const deadline = Date.now() + 4 * periodMs + 1_200_000
    for (;;) {
      if (Date.now() > deadline) throw new Error('no sweep started: is SWEEP_PERIOD_SECONDS set?')
      await new Promise((resolve) => setTimeout(resolve, 250))
      const own = await read()
      const lists = machineLists(own)
      if (lists > last) {
        const quietBefore = Date.now() - lastRise >= periodMs / 2
        lastRise = Date.now()
        last = lists
        if (quietBefore) {
          return { at: Date.now(), own, apiserver: await scrapeRequestCounts(options.access) }
        }
      }
    }
  }
  const diff = (a: RequestCounts, b: RequestCounts) =>
    Object.fromEntries(
      Object.entries(b)
        .map(([k, v]) => [k, v - (a[k] ?? 0)] as const)
        .filter(([, v]) => v !== 0),
    )
  const first = await nextSweepStart()
  let end = first
  for (let i = 0; i < options.cycles; i++) end = await nextSweepStart()
  return {
    cycles: options.cycles,
    windowMs: end.at - first.at,
    own: diff(first.own, end.own),
    apiserver: diff(first.apiserver, end.apiserver),
  }
}
