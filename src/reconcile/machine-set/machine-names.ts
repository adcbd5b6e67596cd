/**
 * @module Deterministic names for a MachineSet's Machines. The n-th slot of a set always has the
 * same name, so two reconciles that both see a replica missing create the same object and one of
 * them gets AlreadyExists instead of a second Machine.
 */
import { createHash } from 'node:crypto'

// Consonants and digits only, like Kubernetes' generateName: no accidental words.
const alphabet = 'bcdfghjklmnpqrstvwxz2456789'
const suffixLength = 5
const maxNameLength = 63

/** The name of slot `index` of the set with this name and uid, e.g. `workers-x7k2q`. */
export function machineNameForSlot(setName: string, setUid: string, index: number): string {
  const digest = createHash('sha256').update(`${setUid}/${index}`).digest()
  let suffix = ''
  for (let i = 0; i < suffixLength; i++) suffix += alphabet[(digest[i] ?? 0) % alphabet.length]
  const prefix = setName.slice(0, maxNameLength - suffixLength - 1)
  return `${prefix}-${suffix}`
}

/**
 * The names of the `count` lowest free slots: names not used by any existing object (Machines
 * being deleted keep their slot until they are gone).
 */
export function namesForMissingReplicas(
  setName: string,
  setUid: string,
  taken: ReadonlySet<string>,
  count: number,
): string[] {
  const names: string[] = []
  for (let index = 0; names.length < count; index++) {
    const name = machineNameForSlot(setName, setUid, index)
    if (!taken.has(name)) names.push(name)
  }
  return names
}
