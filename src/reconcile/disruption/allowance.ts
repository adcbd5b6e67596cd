/**
 * @module The expiry allowance a MachineDeployment hands each of its MachineSets (the set sees its
 * Machines and their ages, the deployment sees the budgets): how many of the set's Machines may be
 * in replacement at once, which budget says so and until when. Carried in the set annotation
 * `machine-api.dev/expiry-allowance` as JSON, so the set never reads its deployment.
 */
import { ANNOTATIONS } from '../../api/group'

/** What a set may do about its expired Machines. */
export interface ExpiryAllowance {
  /** Machines of the set that may be in replacement (new one not yet available, or old one leaving). */
  allowed: number
  /** The budget that sets `allowed` (describeBudget), when one does. */
  budget?: string
  /** When `allowed` may change next (a window opening or closing), as an ISO time. */
  until?: string
}

/** A set with no allowance from a deployment (a standalone MachineSet) replaces one at a time. */
export const defaultExpiryAllowance: ExpiryAllowance = { allowed: 1 }

/** The allowance an object's annotations carry, or the default when absent or unreadable. */
export function readExpiryAllowance(
  annotations: Record<string, string> | undefined,
): ExpiryAllowance {
  const raw = annotations?.[ANNOTATIONS.expiryAllowance]
  if (raw === undefined) return defaultExpiryAllowance
  try {
    const value = JSON.parse(raw) as Partial<ExpiryAllowance>
    if (
      typeof value.allowed !== 'number' ||
      !Number.isInteger(value.allowed) ||
      value.allowed < 0
    ) {
      return defaultExpiryAllowance
    }
    return {
      allowed: value.allowed,
      ...(typeof value.budget === 'string' ? { budget: value.budget } : {}),
      ...(typeof value.until === 'string' ? { until: value.until } : {}),
    }
  } catch {
    return defaultExpiryAllowance
  }
}

/** The annotation value for `allowance` (keys in a fixed order, so equal values compare equal). */
export function formatExpiryAllowance(allowance: ExpiryAllowance): string {
  return JSON.stringify({
    allowed: allowance.allowed,
    ...(allowance.budget === undefined ? {} : { budget: allowance.budget }),
    ...(allowance.until === undefined ? {} : { until: allowance.until }),
  })
}
