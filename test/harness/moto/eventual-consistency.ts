/**
 * @module The fault proxy's eventual-consistency mode: EC2's API is eventually consistent, and
 * moto is not. AWS documents that a command right after RunInstances that names the new instance
 * by id may answer InvalidInstanceID.NotFound (DescribeInstances and TerminateInstances among
 * them), and that this does not mean the instance does not exist
 * (https://docs.aws.amazon.com/ec2/latest/devguide/eventual-consistency.html). Lookups by tag go
 * through the tag index, which lags the launch more (the tags are applied at launch, but a
 * tag-filtered DescribeInstances does not find the instance for a while: the defect of issue 42
 * item 2). AWS gives no figures, so both lags are settings:
 *
 * - `tagMs`: a DescribeInstances with a `tag:*`, `tag-key` or `tag-value` filter does not list an
 *   instance launched less than `tagMs` ago.
 * - `idMs` (default `tagMs / 4`): a DescribeInstances, DescribeInstanceStatus or
 *   TerminateInstances naming such an instance by id answers InvalidInstanceID.NotFound (EC2
 *   fails the whole request when one id is unknown), and a DescribeInstances with only other
 *   filters (`client-token`, `instance-state-name`...) does not list it. AWS does not say how
 *   attribute filters behave; we take them to read the instance's own record, as the id does,
 *   and the tests that depend on a lookup's speed set `idMs` equal to `tagMs` as well.
 *
 * RunInstances' ClientToken, which the lag would otherwise turn into duplicates real EC2 cannot
 * make, is kept by the proxy with or without the lag (launch-model.ts).
 */
import { childText, launchedIds, pruneInstances, readFilters, requestedIds } from './instance-xml'

/** The lags (ms) of the mode. */
export interface ConsistencyLag {
  tagMs: number
  idMs?: number
}

/** The mode's memory of launches: when each instance was launched and under which token. */
export interface Consistency {
  set(lag: ConsistencyLag | undefined): void
  on(): boolean
  /** Remembers the instances of a successful RunInstances or CreateFleet answer. */
  recordLaunch(body: string, now: number): void
  /** Whether a by-id request names an instance EC2 would not know yet. */
  unknownId(action: string, params: URLSearchParams, now: number): boolean
  /** A DescribeInstances answer without the instances its filters would not find yet. */
  hide(body: string, params: URLSearchParams, now: number): { body: string; removed: number }
  clear(): void
}

const byIdActions = ['DescribeInstances', 'DescribeInstanceStatus', 'TerminateInstances']

function isTagFilter(name: string): boolean {
  return name.startsWith('tag:') || name === 'tag-key' || name === 'tag-value'
}

/** A fresh memory; the mode is off until `set`. */
export function createConsistency(): Consistency {
  let lag: Required<ConsistencyLag> | undefined
  const launchedAt = new Map<string, number>()
  const young = (id: string, now: number, ms: number) => {
    const at = launchedAt.get(id)
    return at !== undefined && now - at < ms
  }
  return {
    set(next) {
      lag = next ? { tagMs: next.tagMs, idMs: next.idMs ?? next.tagMs / 4 } : undefined
    },
    on: () => lag !== undefined,
    recordLaunch(body, now) {
      if (!lag) return
      const ids = launchedIds(body)
      for (const id of ids) if (!launchedAt.has(id)) launchedAt.set(id, now)
    },
    unknownId(action, params, now) {
      if (!lag || !byIdActions.includes(action)) return false
      const idMs = lag.idMs
      return requestedIds(params).some((id) => young(id, now, idMs))
    },
    hide(body, params, now) {
      if (!lag || requestedIds(params).length > 0) return { body, removed: 0 }
      const ms = readFilters(params).some((f) => isTagFilter(f.name)) ? lag.tagMs : lag.idMs
      return pruneInstances(body, (xml) => !young(childText(xml, 'instanceId') ?? '', now, ms))
    },
    clear() {
      lag = undefined
      launchedAt.clear()
    },
  }
}
