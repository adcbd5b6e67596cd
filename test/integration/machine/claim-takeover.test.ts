/**
 * A worker killed between its create claim and the instance launch (found by the crash chaos
 * scenario) left the claim for the whole provider call timeout (150 s by default): the restarted
 * worker waited that long before provisioning the Machine. A claim whose holder is known to be
 * dead is now taken over at once; one whose holder may be alive still holds.
 */
import { describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { ClaimHolder } from '../../../src/reconcile/machine/claim-holder'
import { createClaimAnnotation } from '../../../src/reconcile/machine/claim-holder'
import { reconcileMachine } from '../../../src/reconcile/machine/reconcile'
import { kwokMachine, machineDeps, readMachine, testProviders, useMachineTestApi } from './fixture'

const { namespace, kube } = useMachineTestApi('claim')

/** `kube`, but every call after the create claim's write fails: the process died right there. */
function diesAfterClaim(client: KubeClient): KubeClient {
  let dead = false
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver)
      if (typeof value !== 'function' || prop === 'close') return value
      return async (...args: unknown[]) => {
        if (dead) throw new Error('process died')
        const result = await value.apply(target, args)
        if (prop === 'mergePatch' && JSON.stringify(args[2]).includes(createClaimAnnotation)) {
          dead = true
        }
        return result
      }
    },
  })
}

const crashed: ClaimHolder = { id: 'host-a/100/first', isDead: () => false }

/** The restarted worker; `knowsCrashed`: it can tell the first holder is dead. */
function restarted(knowsCrashed: boolean): ClaimHolder {
  return { id: 'host-a/100/second', isDead: (id) => knowsCrashed && id === crashed.id }
}

async function crashThenRestart(name: string, knowsCrashed: boolean) {
  const ns = namespace()
  await kube().create(machineApiTypes.machine, kwokMachine(ns, name))
  const key = { kind: 'Machine', namespace: ns, name }
  const dying = diesAfterClaim(kube())
  const first = { ...machineDeps(dying, testProviders()), claimHolder: crashed }
  await expect(reconcileMachine(first, key)).rejects.toThrow('process died')
  expect((await readMachine(kube(), ns, name))?.metadata.annotations).toHaveProperty(
    createClaimAnnotation,
  )
  // The default provider call timeout applies: a claim that must expire holds for 150 s.
  const second = {
    ...machineDeps(kube(), testProviders()),
    claimHolder: restarted(knowsCrashed),
  }
  await reconcileMachine(second, key)
  return await readMachine(kube(), ns, name)
}

describe('create claim of a crashed worker', () => {
  it('is taken over at once by the worker that knows its holder died', async () => {
    const machine = await crashThenRestart('dead-holder', true)
    expect(machine?.spec.providerID).toBe(`kwok://${namespace()}.dead-holder`)
    expect(machine?.metadata.annotations?.[createClaimAnnotation]).toBeUndefined()
  })

  it('still holds while its holder may be alive', async () => {
    const machine = await crashThenRestart('live-holder', false)
    expect(machine?.spec.providerID).toBeUndefined()
    expect(machine?.metadata.annotations?.[createClaimAnnotation]).toContain(crashed.id)
  })
})
