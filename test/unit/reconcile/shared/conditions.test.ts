import { describe, expect, it } from 'vitest'
import { setCondition, setConditions } from '../../../../src/reconcile/shared/conditions'

const stamp = '2026-12-01T12:00:00Z'

describe('the condition setter', () => {
  const previous = [
    { type: 'Stalled', status: 'False', lastTransitionTime: 'x' },
    {
      type: 'RemediationAllowed',
      status: 'True',
      reason: 'WithinMaxUnhealthy',
      message: 'old',
      lastTransitionTime: 'then',
    },
  ]

  it.each([
    ['same status keeps the transition time', 'True', 'then'],
    ['a flip moves it', 'False', stamp],
  ])('%s, and keeps other types in place', (_name, status, time) => {
    const next = setCondition(
      previous,
      { type: 'RemediationAllowed', status: status as 'True', reason: 'R', message: 'm' },
      { time: stamp },
    )
    expect(next).toEqual([
      previous[0],
      { type: 'RemediationAllowed', status, reason: 'R', message: 'm', lastTransitionTime: time },
    ])
  })

  it('appends a new type with the stamp and records the generation', () => {
    const next = setConditions(
      undefined,
      [{ type: 'Ready', status: 'True', reason: 'Ready', message: '' }],
      { time: stamp, generation: 4 },
    )
    expect(next).toEqual([
      {
        type: 'Ready',
        status: 'True',
        reason: 'Ready',
        message: '',
        lastTransitionTime: stamp,
        observedGeneration: 4,
      },
    ])
  })
})
