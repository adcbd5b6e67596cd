/**
 * @module Who holds a Machine's create claim, and whether that holder is certainly dead. A claim
 * names its holder as `<hostname>/<pid>/<incarnation>`, so a worker that restarts after a crash
 * (SIGKILL, OOM, a container restart keeping its pod's hostname) can take over the claim its dead
 * predecessor left at once, instead of leaving the Machine unprovisioned until the claim expires.
 */
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'

/** The process writing claims: its holder id, and a test for another holder's death. */
export interface ClaimHolder {
  id: string
  /** True only when the holder can no longer be running; unknown holders are alive. */
  isDead(holderId: string): boolean
}

export interface HolderSelf {
  host: string
  pid: number
  /** Random per process: tells a restarted process from its predecessor with the same pid. */
  incarnation: string
}

/** The claim annotation's value: when it was taken, and by whom. */
export function formatClaim(at: Date, holderId: string): string {
  return `${at.toISOString()} ${holderId}`
}

/** Reads a claim value; a bare timestamp (claims of older versions) has no holder. */
export function parseClaim(value: string): { at: Date; holder?: string } {
  const [at = '', holder] = value.trim().split(/\s+/, 2)
  return { at: new Date(at), ...(holder ? { holder } : {}) }
}

/**
 * Whether `holderId` is certainly dead, seen from `self`. Only a holder on this host can be
 * judged: a pid that no longer runs is dead; our own pid with another incarnation is the process
 * this one replaced (a restarted container runs as the same pid). Another host's holder, or an
 * unparsable id, is presumed alive (its claim then expires after the provider call timeout).
 */
export function holderIsDead(
  holderId: string,
  self: HolderSelf,
  isRunning: (pid: number) => boolean,
): boolean {
  const parts = holderId.split('/')
  if (parts.length !== 3) return false
  const [host, pidText, incarnation] = parts as [string, string, string]
  const pid = Number(pidText)
  if (host !== self.host || !Number.isInteger(pid) || pid <= 0) return false
  if (pid === self.pid) return incarnation !== self.incarnation
  return !isRunning(pid)
}

/** Signal 0 checks existence; EPERM means the pid runs under another user. */
function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The holder of this process (one incarnation per process, shared by its controllers). */
export function processClaimHolder(): ClaimHolder {
  return thisProcess
}

const self: HolderSelf = { host: hostname(), pid: process.pid, incarnation: randomUUID() }
const thisProcess: ClaimHolder = {
  id: `${self.host}/${self.pid}/${self.incarnation}`,
  isDead: (holderId) => holderIsDead(holderId, self, pidRuns),
}
