import { describe, expect, it } from 'vitest'
import { readSettings } from '../../src/deps'

describe('runtime settings', () => {
  it('uses defaults when nothing is set', () => {
    expect(readSettings([], {})).toEqual({
      controllers: undefined,
      port: 8080,
      namespace: undefined,
      natsUrl: undefined,
      sweepPeriodMs: 300_000,
      concurrency: 8,
      bus: 'in-process',
      bridge: false,
    })
  })

  it('reads flags before the environment', () => {
    const settings = readSettings(['--controllers=machine', '--bus', 'jetstream', '--bridge'], {
      CONTROLLERS: 'machineset',
      NATS_URL: 'nats://nats:4222',
      SWEEP_PERIOD_SECONDS: '60',
    })
    expect(settings).toMatchObject({
      controllers: 'machine',
      bus: 'jetstream',
      bridge: true,
      natsUrl: 'nats://nats:4222',
      sweepPeriodMs: 60_000,
    })
  })

  it.each([
    [['--bus', 'kafka'], {}, /--bus/],
    [[], { PORT: 'eighty' }, /PORT/],
  ])('rejects %j %j', (argv, env, message) => {
    expect(() => readSettings(argv, env)).toThrow(message)
  })
})
