/** The zod-validated reconcile settings, with errors that name the flag or variable. */
import { describe, expect, it } from 'vitest'
import type { FlagValues } from '../../../src/cli/command'
import { parseRuntimeSettings } from '../../../src/cli/runtime-settings'

const defaults = {
  controllers: undefined,
  port: 8080,
  namespace: undefined,
  natsUrl: undefined,
  sweepPeriodMs: 300_000,
  concurrency: 8,
  bus: 'in-process',
  bridge: false,
}

describe('parseRuntimeSettings', () => {
  it.each<{ name: string; values: FlagValues; env: NodeJS.ProcessEnv; expected: object }>([
    { name: 'defaults', values: {}, env: {}, expected: defaults },
    {
      name: 'worker on JetStream with the bridge',
      values: { bus: 'jetstream', bridge: true, controllers: '*' },
      env: { NATS_URL: 'nats://nats:4222' },
      expected: {
        ...defaults,
        controllers: '*',
        natsUrl: 'nats://nats:4222',
        bus: 'jetstream',
        bridge: true,
      },
    },
    {
      name: 'everything from the environment',
      values: {},
      env: {
        CONTROLLERS: 'machine,machineset',
        PORT: '9090',
        WATCH_NAMESPACE: 'team-a',
        NATS_URL: 'nats://n:4222',
        SWEEP_PERIOD_SECONDS: '0',
        CONCURRENCY: '3',
        BUS: 'jetstream',
        WATCH_BRIDGE: '1',
      },
      expected: {
        controllers: 'machine,machineset',
        port: 9090,
        namespace: 'team-a',
        natsUrl: 'nats://n:4222',
        sweepPeriodMs: 0,
        concurrency: 3,
        bus: 'jetstream',
        bridge: true,
      },
    },
    {
      name: 'flags win over the environment',
      values: { bus: 'in-process', controllers: 'machine' },
      env: { BUS: 'jetstream', CONTROLLERS: 'machineset', NATS_URL: 'nats://n:4222' },
      expected: { ...defaults, controllers: 'machine', natsUrl: 'nats://n:4222' },
    },
  ])('reads $name', ({ values, env, expected }) => {
    expect(parseRuntimeSettings(values, env, { bus: true })).toEqual(expected)
  })

  it.each([
    { env: { PORT: '0' }, values: {}, message: '$PORT: Too small' },
    {
      env: { SWEEP_PERIOD_SECONDS: '-5' },
      values: {},
      message: '$SWEEP_PERIOD_SECONDS: must be a whole number',
    },
    { env: { CONCURRENCY: '0' }, values: {}, message: '$CONCURRENCY: Too small' },
    { env: { NATS_URL: 'localhost:4222' }, values: {}, message: '$NATS_URL: must be a nats://' },
    { env: {}, values: { bus: 'jetstream' }, message: '$NATS_URL: required with --bus jetstream' },
    { env: {}, values: { bridge: true }, message: '--bridge: only with --bus jetstream' },
    { env: { WATCH_BRIDGE: 'yes' }, values: {}, message: '$WATCH_BRIDGE: Invalid input' },
  ])('rejects $message', ({ env, values, message }) => {
    expect(() => parseRuntimeSettings(values as FlagValues, env, { bus: true })).toThrow(message)
  })

  it('ignores $BUS and $WATCH_BRIDGE for commands without a transport choice', () => {
    const env = { BUS: 'jetstream', WATCH_BRIDGE: '1' }
    expect(parseRuntimeSettings({}, env)).toMatchObject({ bus: 'in-process', bridge: false })
  })
})
