/** The `aws` orphan sweep against a real moto EC2 server. */
import { describe, expect, it } from 'vitest'
import { useMoto } from './aws-fixture'
import { deleteUntilDone, newMachine } from './conformance'

const moto = useMoto()
const later = () => new Date(Date.now() + 60 * 60_000)

describe('aws orphan sweep', () => {
  it('reports an instance whose Machine is gone, and terminates it only when enabled', async () => {
    const f = moto()
    const { ctx } = f.context()
    const kept = newMachine('kept')
    const lost = newMachine('lost')
    await f.provider.actuator.create(ctx, kept)
    await f.provider.actuator.create(ctx, lost)
    const request = {
      providerSpec: f.baseSpec,
      secrets: ctx.secrets,
      signal: ctx.signal,
      machineUids: async () => new Set([kept.metadata.uid]),
      now: later,
    }

    const reported = await f.provider.sweepOrphans(request)
    const [lostInstance] = await f.tagged(lost.metadata.uid)
    expect(reported).toEqual([
      expect.objectContaining({
        instanceId: lostInstance?.InstanceId,
        machineUid: lost.metadata.uid,
        machineName: lost.metadata.name,
        terminate: false,
      }),
    ])
    expect(await f.tagged(lost.metadata.uid)).toHaveLength(1)

    const swept = await f.provider.sweepOrphans({ ...request, terminate: true })
    expect(swept.map((o) => o.terminate)).toEqual([true])
    expect(await f.tagged(lost.metadata.uid)).toEqual([])
    expect(await f.tagged(kept.metadata.uid)).toHaveLength(1)
    await deleteUntilDone({ actuator: f.provider.actuator, context: () => ctx }, kept)
  })

  it('leaves young instances alone and stops when the Machine list fails', async () => {
    const f = moto()
    const { ctx } = f.context()
    const fresh = newMachine('fresh')
    await f.provider.actuator.create(ctx, fresh)
    const base = { providerSpec: f.baseSpec, secrets: ctx.secrets, signal: ctx.signal }
    const young = await f.provider.sweepOrphans({
      ...base,
      machineUids: async () => new Set<string>(),
      now: () => new Date(),
      terminate: true,
    })
    expect(young).toEqual([])
    await expect(
      f.provider.sweepOrphans({
        ...base,
        machineUids: async () => {
          throw new Error('apiserver unavailable')
        },
        now: later,
        terminate: true,
      }),
    ).rejects.toThrow('apiserver unavailable')
    expect(await f.tagged(fresh.metadata.uid)).toHaveLength(1)
    await deleteUntilDone({ actuator: f.provider.actuator, context: () => ctx }, fresh)
  })
})
