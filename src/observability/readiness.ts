/** @module Readiness checks: what `/readyz` runs, whichever server answers it. */

/** Readiness: named checks, each true when that part can do its work. */
export type ReadinessChecks = Record<string, () => boolean | Promise<boolean>>

/** The names of the checks that fail (false, or a thrown error), in order; empty when ready. */
export async function failingChecks(checks: ReadinessChecks): Promise<string[]> {
  const failing: string[] = []
  for (const [name, check] of Object.entries(checks)) {
    const ok = await Promise.resolve()
      .then(check)
      .catch(() => false)
    if (!ok) failing.push(name)
  }
  return failing
}
