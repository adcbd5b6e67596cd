/**
 * @module The seeded bad-input generator: N invalid objects spread evenly over kind x version,
 * each a valid object with one mutation. Most are creates; some update an existing valid object
 * (always for immutable-field changes), so the update path of admission is exercised too.
 */
import type { Kind } from '../../../src/api/kinds'
import { type MutationName, mutationNames, variantsFor } from './invalid-mutations'
import {
  allKinds,
  type Json,
  type ServedVersion,
  servedVersions,
  validObject,
} from './invalid-objects'
import type { Random } from './random'

/** One invalid request to send. */
export interface InvalidCase {
  index: number
  kind: Kind
  version: ServedVersion
  mutation: MutationName
  operation: 'create' | 'update'
  /** The object (for updates: the spec to put on the existing object `name`). */
  object: Json
  name: string
  /** Field paths, any of which the refusal must name. */
  paths: string[]
}

/** The name of the valid object of kind/version that updates target. */
export function baseName(kind: Kind, version: ServedVersion): string {
  return `base-${kind.toLowerCase()}-${version}`
}

/** Every kind x version pair. */
export function kindVersions(): Array<[Kind, ServedVersion]> {
  return allKinds.flatMap((kind) => servedVersions.map((v) => [kind, v] as [Kind, ServedVersion]))
}

/** `count` cases in `namespace`, all choices from `random`. */
export function generateCases(random: Random, count: number, namespace: string): InvalidCase[] {
  const pairs = kindVersions()
  const cases: InvalidCase[] = []
  let order = random.shuffle(pairs)
  for (let index = 0; index < count; index++) {
    if (index % pairs.length === 0 && index > 0) order = random.shuffle(pairs)
    const [kind, version] = order[index % pairs.length] as [Kind, ServedVersion]
    const variants = variantsFor(kind, version)
    const families = mutationNames.filter((n) => variants[n].length > 0)
    const mutation = random.pick(families)
    const variant = random.pick(variants[mutation])
    const update = mutation === 'immutable-field' || random.chance(0.2)
    const name = update ? baseName(kind, version) : `bad-${index}`
    const object = validObject(kind, version, { namespace, name })
    const paths = variant(object)
    cases.push({
      index,
      kind,
      version,
      mutation,
      operation: update ? 'update' : 'create',
      object,
      name,
      paths,
    })
  }
  return cases
}
