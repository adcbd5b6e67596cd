/**
 * @module Human-readable pieces of condition messages and Events. Messages quote absolute times
 * and configured timeouts, never "for 12s": a message that changed on every reconcile would
 * rewrite status each time, and each write would wake the health check again.
 */

/** `ms` as a Go-style duration: `45s`, `5m`, `1h30m`, `1.5s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`
  const h = Math.floor(ms / 3_600_000)
  const m = Math.floor((ms % 3_600_000) / 60_000)
  const s = (ms % 60_000) / 1000
  const parts = [h > 0 ? `${h}h` : '', m > 0 ? `${m}m` : '', s > 0 ? `${s}s` : '']
  return parts.join('')
}

/** An epoch-ms time as RFC 3339 in UTC, without milliseconds (as Kubernetes writes times). */
export function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`
}

/** Up to `limit` names, then "and N more", so a message stays readable for big fleets. */
export function formatNames(names: string[], limit = 10): string {
  const shown = names.slice(0, limit).join(', ')
  return names.length > limit ? `${shown} and ${names.length - limit} more` : shown
}
