/**
 * @module Bounds of the MachineClass API that the controllers need without its schemas: the worker
 * must start without loading zod (test/unit/cli/function-bundles.test.ts).
 */

/** The most offerings status.unavailableOfferings lists (the soonest to expire go first). */
export const maxUnavailableOfferings = 100
