/**
 * @module What a running `npm run dev` tells later commands (`machine-api dev interrupt`): its
 * kubeconfig, the notice queue and moto's endpoint, in a file under the temp directory, written
 * at start and removed at Ctrl-C. Flags and environment variables win over it.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A running demo's endpoints. */
export interface DevSession {
  kubeconfig: string
  namespace: string
  /** Absent with --provider kwok (no cloud, no queue). */
  queueUrl?: string | undefined
  sqsEndpoint?: string | undefined
  region?: string | undefined
}

/** Where the session is written. */
export function devSessionPath(): string {
  return join(tmpdir(), 'machine-api-dev', 'session.json')
}

/** Writes `session`; resolves the function that removes it. */
export function writeDevSession(session: DevSession, path = devSessionPath()): () => void {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600 })
  return () => rmSync(path, { force: true })
}

/** The running demo's session, or undefined when none (or not readable). */
export function readDevSession(path = devSessionPath()): DevSession | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<DevSession>
    if (typeof value.kubeconfig !== 'string' || typeof value.namespace !== 'string')
      return undefined
    return value as DevSession
  } catch {
    return undefined
  }
}
