/**
 * @module The defaults of a set's `spec.interruption` (interruption-policy.ts), in a file of their
 * own so the MachineSet controller reads them without importing the zod schemas (the worker
 * starts without zod, as with machine-class-limits.ts).
 */

/**
 * The surge bound when `maxSurge` is not set: a quarter of replicas, rounded up (at least 1 in a
 * non-empty set). Urgent notices are drained whatever the bound, so it only paces replacements:
 * a spot reclaim of one capacity pool in a set spread over four or more is replaced at once, while
 * a fleet-wide maintenance announcement does not double the fleet.
 */
export const defaultInterruptionMaxSurge = '25%'
