/**
 * @module Names for a MachineSet's Machines. The set counts the names it has handed out
 * (`status.nextMachineIndex`) and the n-th name of a set is always the same, so:
 * - two reconciles that both see a replica missing plan the same name from the same count, and
 *   one of them gets Conflict on the count (or AlreadyExists on the name) instead of a second
 *   Machine;
 * - a name is never handed out twice in the set's life: a Machine that was interrupted, replaced
 *   or scaled away keeps its name to itself in Events, metrics series, logs and alerts.
 * The n-th name's suffix is an affine permutation of n keyed by the set's uid: distinct for every
 * n below 27^5, so no two Machines of one set share a name however many it makes.
 */
import { createHash } from 'node:crypto'

// Consonants and digits only, like Kubernetes' generateName: no accidental words.
const alphabet = 'bcdfghjklmnpqrstvwxz2456789'
const suffixLength = 5
const maxNameLength = 63
const space = BigInt(alphabet.length) ** BigInt(suffixLength)

/** The permutation x -> (a x + b) mod 27^5 of the set with this uid; a is prime to 27^5 (not a multiple of 3). */
function permutationOf(setUid: string): { a: bigint; b: bigint } {
  const digest = createHash('sha256').update(setUid).digest()
  let a = digest.readBigUInt64BE(0) % space
  if (a % 3n === 0n) a += 1n
  return { a, b: digest.readBigUInt64BE(8) % space }
}

/** The name with index `index` of the set with this name and uid, e.g. `workers-x7k2q`. */
export function machineNameForIndex(setName: string, setUid: string, index: number): string {
  const { a, b } = permutationOf(setUid)
  let value = (a * BigInt(index) + b) % space
  let suffix = ''
  for (let i = 0; i < suffixLength; i++) {
    suffix += alphabet[Number(value % BigInt(alphabet.length))]
    value /= BigInt(alphabet.length)
  }
  const prefix = setName.slice(0, maxNameLength - suffixLength - 1)
  return `${prefix}-${suffix}`
}

/** New names and the count to record once they are handed out. */
export interface NewNames {
  names: string[]
  /** `status.nextMachineIndex` after these names. */
  nextIndex: number
}

/**
 * The next `count` names from index `from`, skipping names some object of the namespace holds
 * (a foreign Machine, or one made before the set counted its names).
 */
export function nextMachineNames(
  setName: string,
  setUid: string,
  taken: ReadonlySet<string>,
  from: number,
  count: number,
): NewNames {
  const names: string[] = []
  let index = from
  while (names.length < count) {
    const name = machineNameForIndex(setName, setUid, index++)
    if (!taken.has(name)) names.push(name)
  }
  return { names, nextIndex: index }
}
