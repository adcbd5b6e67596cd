/**
 * @module The EC2 call bounds the cloud-faults scenario asserts, derived from the aws provider's
 * call pattern and the runtime's retry schedule (not from measurements):
 *
 * - Every SDK command is at most `sdkAttempts` HTTP requests (client-pool.ts: maxAttempts 3).
 * - A create asks each of its offerings at most once: the world's class has one instance type
 *   over moto's 3 default subnets, one per zone, so up to `zones` RunInstances when each misses
 *   (fallback.ts); once the class remembers the misses, none until they expire.
 * - A create is at most 5 + 2 x zones - 1 commands: DescribeInstances by UID (exists),
 *   DescribeInstances again (create re-checks), DescribeImages, DescribeSubnets,
 *   DescribeInstanceTypeOfferings, then per offering RunInstances, each after the first preceded
 *   by DescribeInstances by UID (lookup.ts, resolve.ts, offered-zones.ts, fallback.ts).
 * - A reconcile of a Machine that has an instance is 1 command (DescribeInstances by id).
 * - A Machine whose launch failed is retried by its own requeue (capacity: 120 s; throttling or
 *   5xx: 15-20 s, providers/errors.ts) or by the next sweep, whichever comes first; and once after
 *   the watch events of its own writes (the create claim and the status). A hot loop breaks this.
 * - A healthy Machine is reconciled a bounded number of times while it comes up (its own writes,
 *   its Node appearing, provider polls every 10 s while pending) and once per sweep after that.
 *
 * And the capacity scenario's RunInstances bound, from its inputs only (`capacityRunBound`).
 */

/** HTTP requests per SDK command at most (the SDK's own retries). */
export const sdkAttempts = 3
/** Zones (offerings) of the world's class: moto's default subnets in eu-west-1. */
const zones = 3
/** Commands of one create attempt. */
const commandsPerCreate = 5 + 2 * zones - 1
/** Reconciles of one Machine while it comes up, besides sweeps and polls (writes, Node, retries). */
const reconcilesWhileComingUp = 12

/** Launch attempts per starved Machine in `seconds`: first + one per sweep + its own writes. */
function launchAttempts(seconds: number, sweepSeconds: number): number {
  return 2 + Math.ceil(seconds / sweepSeconds)
}

/** RunInstances requests for the starved instance type at most. */
export function starvedLaunchBound(o: {
  machines: number
  seconds: number
  sweepSeconds: number
}): number {
  // A miss is one request (client-pool.ts: the SDK does not retry it); the 30% random faults
  // on RunInstances may still be retried, hence sdkAttempts.
  return o.machines * sdkAttempts * zones * launchAttempts(o.seconds, o.sweepSeconds)
}

/** EC2 requests of every action at most, while the faults last `seconds`. */
export function ec2CallBound(o: {
  healthy: number
  starved: number
  seconds: number
  sweepSeconds: number
}): number {
  const sweeps = Math.ceil(o.seconds / o.sweepSeconds)
  // Failed creates are retried: assume every healthy Machine needed a second create attempt.
  const healthyCommands =
    o.healthy *
    (2 * commandsPerCreate + reconcilesWhileComingUp + Math.ceil(o.seconds / 10) + sweeps)
  const starvedCommands = o.starved * commandsPerCreate * launchAttempts(o.seconds, o.sweepSeconds)
  // The periodic orphan sweep lists each class's instances once per sweep.
  const orphanCommands = 2 * sweeps
  return sdkAttempts * (healthyCommands + starvedCommands + orphanCommands)
}

/** Machines a set created with `replicas` and then scaled through `schedule` creates. */
export function machinesCreated(replicas: number, schedule: readonly number[]): number {
  let created = replicas
  let current = replicas
  for (const next of schedule) {
    created += Math.max(0, next - current)
    current = next
  }
  return created
}

/**
 * RunInstances requests at most in the capacity scenario: each Machine launches once, each
 * injected miss is one request (the SDK does not retry InsufficientInstanceCapacity), and each
 * kill cuts short at most `concurrency` creates, each sent again once (with its ClientToken).
 * Nothing here is measured from the worker, so a Machine launched twice breaks the bound.
 */
export function capacityRunBound(o: {
  machines: number
  misses: number
  kills: number
  concurrency: number
}): number {
  return o.machines + o.misses + o.kills * o.concurrency
}
