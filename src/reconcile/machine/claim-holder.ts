/**
 * @module Who holds a Machine's create claim, and whether that holder is certainly dead. A claim
 * names its holder as `<pod UID or hostname>/<pid>/<incarnation>`, so a worker that restarts after
 * a crash (SIGKILL, OOM, a container restart in the same pod) can take over the claim its dead
 * predecessor left at once, instead of leaving the Machine unprovisioned until the claim expires.
 */
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import { ANNOTATIONS } from '../../api/group'

/**
 * Set while one reconcile is creating the Machine's instance (value: when it started and which
 * process holds it).
 */
export const createClaimAnnotation = ANNOTATIONS.createClaim

/** The process writing claims: its holder id, and a test for another holder's death. */
export interface ClaimHolder {
  id: string
  /** True only when the holder can no longer be running; unknown holders are alive. */
  isDead(holderId: string): boolean
}

/** Who a process is, as claims name it. */
export interface HolderSelf {
  /**
   * The pid namespace the pid belongs to: the pod UID where known (downward API), else the
   * hostname. Two hostNetwork pods on one Node share a hostname and may both run as pid 1; only
   * their pod UIDs tell them apart.
   */
  scope: string
  pid: number
  /** Random per process: tells a restarted process from its predecessor with the same pid. */
  incarnation: string
}

/** The marker of a claim a deletion took over from a dead create (deletion.ts). */
const forDeletionMarker = 'deleting'

/** The claim annotation's value: when it was taken, by whom, and whether by a deletion. */
export function formatClaim(at: Date, holderId: string, forDeletion = false): string {
  return `${at.toISOString()} ${holderId}${forDeletion ? ` ${forDeletionMarker}` : ''}`
}

/** Reads a claim value; a bare timestamp (claims of older versions) has no holder. */
export function parseClaim(value: string): { at: Date; holder?: string; forDeletion?: true } {
  const [at = '', holder, marker] = value.trim().split(/\s+/, 3)
  return {
    at: new Date(at),
    ...(holder ? { holder } : {}),
    ...(marker === forDeletionMarker ? { forDeletion: true as const } : {}),
  }
}

/**
 * Whether `holderId` is certainly dead, seen from `self`. Only a holder in this pid namespace can
 * be judged: a pid that no longer runs is dead; our own pid with another incarnation is the
 * process this one replaced (a restarted container runs as the same pid in the same pod).
 * Another scope's holder, or an unparsable id, is presumed alive (its claim then expires after
 * the provider call timeout).
 */
export function holderIsDead(
  holderId: string,
  self: HolderSelf,
  isRunning: (pid: number) => boolean,
): boolean {
  const parts = holderId.split('/')
  if (parts.length !== 3) return false
  const [scope, pidText, incarnation] = parts as [string, string, string]
  const pid = Number(pidText)
  if (scope !== self.scope || !Number.isInteger(pid) || pid <= 0) return false
  if (pid === self.pid) return incarnation !== self.incarnation
  return !isRunning(pid)
}

/** Signal 0 checks existence; EPERM means the pid runs under another user. */
export function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * This process as claims name it: the pod UID from `env.POD_UID` (set from `metadata.uid` by
 * the deployment manifests) or else the hostname, the pid, and a fresh random incarnation.
 * Call once per process, at the composition root, and inject the holder it makes.
 */
export function processSelf(env: NodeJS.ProcessEnv): HolderSelf {
  return { scope: env.POD_UID || hostname(), pid: process.pid, incarnation: randomUUID() }
}

/** The claim holder of `self`. */
export function createClaimHolder(
  self: HolderSelf,
  isRunning: (pid: number) => boolean = pidRuns,
): ClaimHolder {
  return {
    id: `${self.scope}/${self.pid}/${self.incarnation}`,
    isDead: (holderId) => holderIsDead(holderId, self, isRunning),
  }
}
