/**
 * The bad-input generator, checked in-process against what the webhook does (the apiserver's
 * conversion to v1beta1, the shape bound, /mutate's defaults, /validate's rules): every case is
 * refused, naming one of the fields the scenario expects. A family whose cases admission accepts
 * or refuses elsewhere would make the chaos run report them as admitted or without a field path.
 */
import { describe, expect, it } from 'vitest'
import { convertObject } from '../../../src/api/conversion/convert'
import { defaultObject } from '../../../src/api/defaults/default-object'
import { HUB_API_VERSION } from '../../../src/api/group'
import type { Kind } from '../../../src/api/kinds'
import { formatFieldErrors } from '../../../src/api/validation/field-errors'
import { depthError } from '../../../src/api/validation/json-bounds'
import { validateObject } from '../../../src/api/validation/validate'
import { builtInProviderSpecSchemas } from '../../../src/providers/schemas'
import { hostileFamilyNames } from '../../chaos/lib/hostile-mutations'
import { generateCases } from '../../chaos/lib/invalid-cases'
import { seededRandom } from '../../chaos/lib/random'

type Obj = Record<string, unknown>

function refusal(kind: Kind, object: Obj): string | undefined {
  const hub = convertObject(object, HUB_API_VERSION)
  const tooDeep = depthError(hub, '')
  if (tooDeep) return formatFieldErrors([tooDeep])
  const defaulted = defaultObject(kind, hub, undefined)
  const errors = validateObject(kind, defaulted, undefined, {
    providerSchemas: builtInProviderSpecSchemas,
  })
  return errors.length > 0 ? formatFieldErrors(errors) : undefined
}

describe('bad-input cases of issue 33', () => {
  const cases = generateCases(seededRandom(33), 3000, 'ns').filter(
    (c) =>
      c.operation === 'create' && (hostileFamilyNames as readonly string[]).includes(c.mutation),
  )

  it('cover every family', () => {
    expect(new Set(cases.map((c) => c.mutation))).toEqual(new Set(hostileFamilyNames))
  })

  it('are each refused naming an expected field', () => {
    const wrong = cases.flatMap((c) => {
      const message = refusal(c.kind, c.object)
      const named = c.paths.some((p) =>
        [':', '.', '[', ' '].some((n) => message?.includes(`${p}${n}`)),
      )
      return named
        ? []
        : [
            `${c.kind}/${c.version}/${c.mutation}: ${message ?? 'admitted'} (want ${c.paths.join('|')})`,
          ]
    })
    expect(wrong).toEqual([])
  })
})
