/**
 * @module The provider conformance suite: one set of behaviours every actuator must show against
 * its real backend (aws on moto's EC2 server, kwok on the real control plane). Each provider's
 * test file calls `actuatorConformance` with a target that knows how to look at its backend.
 */
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type {
  Actuator,
  ActuatorContext,
  ActuatorMachine,
  ProviderResult,
} from '../../../src/providers/actuator'
import { NotFoundError } from '../../../src/providers/errors'

/** What the suite needs from a provider's test file. */
export interface ConformanceTarget {
  actuator: Actuator
  /** A fresh context with a valid provider spec for this backend. */
  context(): ActuatorContext
  /** Live instances behind the Machine UID, read from the backend directly, not via the actuator. */
  countInstances(uid: string): Promise<number>
  /** The providerID pattern this provider produces. */
  providerIDPattern: RegExp
}

/** A new Machine that no provider has seen. */
export function newMachine(prefix = 'conf'): ActuatorMachine {
  const uid = randomUUID()
  return {
    metadata: { name: `${prefix}-${uid.slice(0, 8)}`, namespace: 'conformance', uid },
    spec: {},
  }
}

/** The Machine after the reconcile recorded `result` (providerID + providerStatus). */
export function recorded(machine: ActuatorMachine, result: ProviderResult): ActuatorMachine {
  return {
    ...machine,
    spec: { providerID: result.providerID },
    status: { providerStatus: result.providerStatus },
  }
}

/** Calls delete until it reports done, as the reconcile does by requeueing (bounded). */
export async function deleteUntilDone(
  target: Pick<ConformanceTarget, 'actuator' | 'context'>,
  machine: ActuatorMachine,
): Promise<number> {
  for (let calls = 1; calls <= 20; calls++) {
    const result = await target.actuator.delete(target.context(), machine)
    if (result.done) return calls
    expect(result.requeueAfterMs).toBeGreaterThan(0)
  }
  throw new Error('delete never finished')
}

/** Registers the conformance tests for the target `get()` returns (resolved in beforeAll). */
export function actuatorConformance(name: string, get: () => ConformanceTarget): void {
  describe(`${name} actuator conformance`, () => {
    it('creates, finds, observes and deletes an instance; delete is idempotent', async () => {
      const t = get()
      const machine = newMachine()
      expect(await t.actuator.exists(t.context(), machine)).toBe(false)
      const created = await t.actuator.create(t.context(), machine)
      expect(created.providerID).toMatch(t.providerIDPattern)
      const stored = recorded(machine, created)
      expect(await t.actuator.exists(t.context(), stored)).toBe(true)
      const updated = await t.actuator.update(t.context(), stored)
      expect(updated.providerID).toBe(created.providerID)
      expect(await t.countInstances(machine.metadata.uid)).toBe(1)

      await deleteUntilDone(t, stored)
      expect(await t.countInstances(machine.metadata.uid)).toBe(0)
      expect(await t.actuator.exists(t.context(), stored)).toBe(false)
      expect(await t.actuator.delete(t.context(), stored)).toEqual({ done: true })
    })

    it('finds and deletes the instance with only the access create reported, no spec', async () => {
      const t = get()
      const machine = newMachine()
      const created = await t.actuator.create(t.context(), machine)
      expect(created.access).toBeDefined()
      const stored = recorded(machine, created)
      // What the Machine controller passes while deleting: no spec, no class refs (recorded-access.ts).
      const accessOnly = (): ActuatorContext => ({
        ...t.context(),
        providerSpec: undefined,
        credentialsSecretRef: undefined,
        userDataSecretRef: undefined,
        access: created.access,
      })
      expect(await t.actuator.exists(accessOnly(), stored)).toBe(true)
      await deleteUntilDone({ actuator: t.actuator, context: accessOnly }, stored)
      expect(await t.countInstances(machine.metadata.uid)).toBe(0)
      expect(await t.actuator.exists(accessOnly(), stored)).toBe(false)
    })

    it('creates one instance when create runs twice for one Machine UID (crash before status write)', async () => {
      const t = get()
      const machine = newMachine()
      const first = await t.actuator.create(t.context(), machine)
      // The status write never happened: the Machine still has no providerID.
      const second = await t.actuator.create(t.context(), machine)
      expect(second.providerID).toBe(first.providerID)
      expect(await t.countInstances(machine.metadata.uid)).toBe(1)
      await deleteUntilDone(t, machine)
    })

    it('finds the instance by Machine UID when no providerID was ever recorded', async () => {
      const t = get()
      const machine = newMachine()
      const created = await t.actuator.create(t.context(), machine)
      expect(await t.actuator.exists(t.context(), machine)).toBe(true)
      expect((await t.actuator.update(t.context(), machine)).providerID).toBe(created.providerID)
      // Deleting through the UID alone must not leak the instance either.
      await deleteUntilDone(t, machine)
      expect(await t.countInstances(machine.metadata.uid)).toBe(0)
    })

    it('reports success when deleting a Machine that never had an instance', async () => {
      const t = get()
      expect(await t.actuator.delete(t.context(), newMachine())).toEqual({ done: true })
    })

    it('reports a Machine without an instance as not existing and refuses to update it', async () => {
      const t = get()
      const machine = newMachine()
      expect(await t.actuator.exists(t.context(), machine)).toBe(false)
      await expect(t.actuator.update(t.context(), machine)).rejects.toBeInstanceOf(NotFoundError)
    })
  })
}
